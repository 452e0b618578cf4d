// jemalloc (Debian's libjemalloc-dev) replaces malloc and free for the whole process: linking it is all it takes,
// so nothing is declared here (its header would declare malloc a second time beside glibc's). `pushcheck` imports
// this module for its `link` line; README "Benchmarks" says why.
