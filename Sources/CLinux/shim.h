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
#include <string.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <poll.h>
#include <sys/wait.h>
#include <spawn.h>

static inline int pc_errno(void) { return errno; }

/* APNsGateway's rings: a hint to bring into the cache the lines from `p` on (`bytes` of them, at least one line),
   for writing; never faults, whatever the address. */
static inline void pc_prefetch_lines(const void *p, long bytes) {
    const char *c = (const char *)p;
    long i = 0;
    do { __builtin_prefetch(c + i, 1, 3); i += 64; } while (i < bytes);
}

static inline int pc_fcntl_setfl(int fd, int flags) { return fcntl(fd, F_SETFL, flags); }
static inline int pc_fcntl_getfl(int fd) { return fcntl(fd, F_GETFL); }

/* HTTPServer: packed epoll_event and socket helpers without importer fiddling. */
static inline int pc_epoll_add(int epfd, int fd, uint32_t events, uint64_t token) {
    struct epoll_event ev; ev.events = events; ev.data.u64 = token;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}
static inline int pc_epoll_mod(int epfd, int fd, uint32_t events, uint64_t token) {
    struct epoll_event ev; ev.events = events; ev.data.u64 = token;
    return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
}
static inline int pc_epoll_del(int epfd, int fd) { return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL); }
static inline int pc_epoll_wait(int epfd, struct epoll_event *evs, int max, int timeout_ms) {
    return epoll_wait(epfd, evs, max, timeout_ms);
}
static inline uint64_t pc_epoll_event_token(const struct epoll_event *evs, int i) { return evs[i].data.u64; }
static inline uint32_t pc_epoll_event_events(const struct epoll_event *evs, int i) { return evs[i].events; }
static inline uint32_t pc_EPOLLIN(void) { return EPOLLIN; }
static inline uint32_t pc_EPOLLOUT(void) { return EPOLLOUT; }
static inline uint32_t pc_EPOLLERR(void) { return EPOLLERR; }
static inline uint32_t pc_EPOLLHUP(void) { return EPOLLHUP; }
static inline uint32_t pc_EPOLLRDHUP(void) { return EPOLLRDHUP; }
static inline int pc_socket_stream_nonblock(int family) {
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}
static inline int pc_accept_nonblock(int fd, struct sockaddr_storage *addr, socklen_t *len) {
    return accept4(fd, (struct sockaddr *)addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
static inline int pc_eventfd_nonblock(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
static inline int pc_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
static inline int pc_setsockopt_int(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof(value));
}
static inline int pc_SOL_SOCKET(void) { return SOL_SOCKET; }
static inline int pc_SO_REUSEADDR(void) { return SO_REUSEADDR; }
static inline int pc_SO_REUSEPORT(void) { return SO_REUSEPORT; }
static inline int pc_IPPROTO_TCP(void) { return IPPROTO_TCP; }
static inline int pc_TCP_NODELAY(void) { return TCP_NODELAY; }
static inline int pc_signalfd_for(const int *signals, int count) {
    sigset_t mask; sigemptyset(&mask);
    for (int i = 0; i < count; i++) sigaddset(&mask, signals[i]);
    if (pthread_sigmask(SIG_BLOCK, &mask, NULL) != 0) return -1;
    return signalfd(-1, &mask, SFD_CLOEXEC);
}
static inline void pc_block_termination_signals(void) {
    sigset_t mask; sigemptyset(&mask);
    sigaddset(&mask, SIGINT); sigaddset(&mask, SIGTERM); sigaddset(&mask, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &mask, NULL);
}

/* SIGINT/SIGTERM → one byte (the signal number) on a pipe, for a watcher thread to read. A handler
   works whatever the threads' signal masks are (libdispatch resets the main thread's mask, which
   defeats a blocked-mask + signalfd design). Used by PushcheckCommands only. */
static int pc_termination_pipe_fd = -1;
static void pc_termination_handler(int sig) {
    unsigned char b = (unsigned char)sig;
    if (pc_termination_pipe_fd >= 0) { ssize_t r = write(pc_termination_pipe_fd, &b, 1); (void)r; }
}
static inline int pc_install_termination_pipe(int write_fd) {
    pc_termination_pipe_fd = write_fd;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pc_termination_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0) return -1;
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

/* Scenarios: a run: step's descendants. As a child subreaper, pushcheck inherits every orphan its
   commands leave (a setsid grandchild included) instead of init, so it can find and kill them. */
static inline int pc_set_child_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }
/* Blocks until child pid has exited, WITHOUT reaping it (WNOWAIT: the step's processes are killed
   first, while the shell's pid cannot be reused). *code is CLD_EXITED, CLD_KILLED or CLD_DUMPED; *status the exit status or signal number.
   Returns 0, or -1 with errno (ECHILD: already reaped). */
static inline int pc_wait_exit_nowait(pid_t pid, int *code, int *status) {
    siginfo_t info; memset(&info, 0, sizeof info);
    int r;
    do { r = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT); } while (r < 0 && errno == EINTR);
    if (r == 0) { *code = info.si_code; *status = info.si_status; }
    return r;
}
static inline int pc_CLD_EXITED(void) { return CLD_EXITED; }
/* glibc declares these only under _GNU_SOURCE (all three there since glibc 2.34 at the latest). */
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *restrict, const char *restrict);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
extern int pipe2(int pipefd[2], int flags);
/* A pipe whose both ends are close-on-exec; fds[0] reads, fds[1] writes. Returns 0 or -1 with errno. */
static inline int pc_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
/* Starts argv[0] (a run: step's /bin/sh -c) as a shell would start a command: an empty signal mask and
   every catchable signal at its default disposition. Without this the child inherits the spawning
   thread's mask (libdispatch's and Swift's worker threads block almost every signal) and pushcheck's
   SIG_IGN for SIGPIPE, so a backend script could not be stopped by SIGTERM or die of a closed pipe.
   stdin is /dev/null, stdout/stderr are out_fd/err_fd, the directory is dir, and no other descriptor is
   inherited. Returns 0 with *pid, or an errno value. */
static inline int pc_spawn_command(const char *dir, char *const argv[], char *const envp[], int out_fd,
                                   int err_fd, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    int r = posix_spawn_file_actions_init(&actions);
    if (r != 0) return r;
    r = posix_spawnattr_init(&attr);
    if (r != 0) { posix_spawn_file_actions_destroy(&actions); return r; }
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    /* Bits set directly: sigaddset refuses glibc's two internal signals (32, 33), which posix_spawn would
       then leave ignored in the child (and an ignored signal stays ignored across exec). glibc's layout:
       signal n is bit (n-1) of an array of unsigned long. */
    const int bits = 8 * (int)sizeof(unsigned long);
    for (int sig = 1; sig <= SIGRTMAX && (sig - 1) / bits < (int)(sizeof defaults.__val / sizeof defaults.__val[0]); sig++) {
        if (sig != SIGKILL && sig != SIGSTOP) defaults.__val[(sig - 1) / bits] |= 1UL << ((sig - 1) % bits);
    }
    if ((r = posix_spawnattr_setsigmask(&attr, &empty)) == 0
        && (r = posix_spawnattr_setsigdefault(&attr, &defaults)) == 0
        && (r = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)) == 0
        && (r = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)) == 0
        && (r = posix_spawn_file_actions_adddup2(&actions, out_fd, 1)) == 0
        && (r = posix_spawn_file_actions_adddup2(&actions, err_fd, 2)) == 0
        && (r = posix_spawn_file_actions_addchdir_np(&actions, dir)) == 0
        && (r = posix_spawn_file_actions_addclosefrom_np(&actions, 3)) == 0) {
        r = posix_spawn(pid, argv[0], &actions, &attr, argv, envp);
    }
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return r;
}
/* Reaps child pid (already exited). */
static inline void pc_reap(pid_t pid) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
}
/* Waits up to timeout_ms for fd to be readable (or hung up); returns poll's result. */
static inline int pc_poll_readable(int fd, int timeout_ms) {
    struct pollfd p; p.fd = fd; p.events = POLLIN; p.revents = 0;
    return poll(&p, 1, timeout_ms);
}
/* Occurrences of byte b in [p, p+n): the line count of output that is dropped (plain C, cheap per byte). */
static inline size_t pc_count_byte(const void *p, size_t n, unsigned char b) {
    const unsigned char *s = (const unsigned char *)p; size_t c = 0;
    for (size_t i = 0; i < n; i++) c += (s[i] == b);
    return c;
}
#endif
