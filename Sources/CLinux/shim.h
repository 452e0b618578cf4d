#ifndef PUSHCHECK_CLINUX_SHIM_H
#define PUSHCHECK_CLINUX_SHIM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <errno.h>
#include <unistd.h>

static inline int pc_errno(void) { return errno; }
static inline int pc_fcntl_setfl(int fd, int flags) { return fcntl(fd, F_SETFL, flags); }
static inline int pc_fcntl_getfl(int fd) { return fcntl(fd, F_GETFL); }
#endif
