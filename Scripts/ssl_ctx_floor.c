/* What one SSL_CTX costs on this machine: libcurl 7.88 makes one for every connection
 * (Curl_ossl_connect_step1: SSL_CTX_new, then SSL_CTX_free when the connection closes), so
 * this is a floor under any libcurl client's CPU per domain that a prober holding one context
 * for its whole run does not pay. Scripts/bench.sh builds and runs it beside the clients.
 *
 *   cc -O2 Scripts/ssl_ctx_floor.c -o ssl_ctx_floor -lssl -lcrypto && ./ssl_ctx_floor [N]
 *
 * Prints the CPU time per SSL_CTX_new + SSL_CTX_free pair in microseconds, the mean of N
 * (default 5000) after one to load the providers. */
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 5000;
    if (n <= 0) {
        fprintf(stderr, "usage: %s [N > 0]\n", argv[0]);
        return 2;
    }
    SSL_CTX_free(SSL_CTX_new(TLS_client_method()));
    struct timespec start, end;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    for (int i = 0; i < n; i++) {
        SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
        if (ctx == NULL) {
            fprintf(stderr, "SSL_CTX_new failed\n");
            return 1;
        }
        SSL_CTX_free(ctx);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end);
    double us = ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / 1e3 / n;
    printf("%.1f\n", us);
    return 0;
}
