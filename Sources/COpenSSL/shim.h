#ifndef PUSHCHECK_COPENSSL_SHIM_H
#define PUSHCHECK_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/bio.h>
#include <openssl/rand.h>
#include <openssl/pkcs12.h>
#include <openssl/cms.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>

/* Function-like macros and variadic calls the Swift importer cannot see. */
static inline long pc_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline long pc_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int v) { return SSL_CTX_set_min_proto_version(ctx, v); }
static inline int pc_SSL_CTX_set_app_data(SSL_CTX *ctx, void *arg) { return SSL_CTX_set_app_data(ctx, arg); }
static inline void *pc_SSL_CTX_get_app_data(const SSL_CTX *ctx) { return SSL_CTX_get_app_data(ctx); }
static inline int pc_SSL_set_app_data(SSL *ssl, void *arg) { return SSL_set_app_data(ssl, arg); }
static inline void *pc_SSL_get_app_data(const SSL *ssl) { return SSL_get_app_data(ssl); }
static inline uint64_t pc_SSL_OP_NO_COMPRESSION(void) { return SSL_OP_NO_COMPRESSION; }
static inline uint64_t pc_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline long pc_SSL_MODE_RELEASE_BUFFERS(void) { return SSL_MODE_RELEASE_BUFFERS; }
static inline long pc_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER(void) { return SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER; }
static inline long pc_SSL_MODE_ENABLE_PARTIAL_WRITE(void) { return SSL_MODE_ENABLE_PARTIAL_WRITE; }
static inline int pc_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }
static inline int pc_BIO_get_mem_data(BIO *b, char **pp) { return (int)BIO_get_mem_data(b, pp); }
static inline int pc_SSL_TLSEXT_ERR_OK(void) { return SSL_TLSEXT_ERR_OK; }
static inline int pc_SSL_TLSEXT_ERR_NOACK(void) { return SSL_TLSEXT_ERR_NOACK; }
static inline int pc_SSL_TLSEXT_ERR_ALERT_FATAL(void) { return SSL_TLSEXT_ERR_ALERT_FATAL; }
static inline unsigned long pc_ERR_GET_REASON(unsigned long e) { return ERR_GET_REASON(e); }
#endif
