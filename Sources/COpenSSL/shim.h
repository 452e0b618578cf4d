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

/* PushCrypto: key generation, stacks and frees hidden behind macros. */
#include <openssl/provider.h>
/* Loads the default and legacy providers (RC2/3DES PKCS#12 files from macOS Keychain need legacy). 1 on success. */
static inline int pc_load_legacy_provider(void) {
    return OSSL_PROVIDER_load(NULL, "default") != NULL && OSSL_PROVIDER_load(NULL, "legacy") != NULL;
}
static inline EVP_PKEY *pc_EVP_EC_gen(const char *curve) { return EVP_PKEY_Q_keygen(NULL, NULL, "EC", curve); }
static inline EVP_PKEY *pc_EVP_RSA_gen(unsigned int bits) { return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)bits); }
static inline int pc_MBSTRING_UTF8(void) { return MBSTRING_UTF8; }
static inline void pc_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline int pc_sk_GENERAL_NAME_num(const GENERAL_NAMES *sk) { return sk_GENERAL_NAME_num(sk); }
static inline GENERAL_NAME *pc_sk_GENERAL_NAME_value(const GENERAL_NAMES *sk, int i) { return sk_GENERAL_NAME_value(sk, i); }
static inline int pc_GENERAL_NAME_type(const GENERAL_NAME *g) { return g->type; }
static inline ASN1_STRING *pc_GENERAL_NAME_string(const GENERAL_NAME *g) { return g->d.ia5; }
static inline int pc_GEN_DNS(void) { return GEN_DNS; }
static inline int pc_GEN_IPADD(void) { return GEN_IPADD; }
static inline STACK_OF(X509) *pc_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int pc_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *pc_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline int pc_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
static inline void pc_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }
static inline void pc_sk_X509_pop_free(STACK_OF(X509) *sk) { sk_X509_pop_free(sk, X509_free); }
static inline void pc_X509V3_set_ctx_nodb(X509V3_CTX *ctx) { X509V3_set_ctx_nodb(ctx); }

/* HTTPServer: chain certificates and client-certificate verification. */
static inline long pc_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *x) { return SSL_CTX_add1_chain_cert(ctx, x); }
static inline int pc_SSL_VERIFY_PEER(void) { return SSL_VERIFY_PEER; }
static inline int pc_SSL_VERIFY_NONE(void) { return SSL_VERIFY_NONE; }
static inline uint64_t pc_SSL_OP_CIPHER_SERVER_PREFERENCE(void) { return SSL_OP_CIPHER_SERVER_PREFERENCE; }
#endif
