#include "CCurlShim.h"
#include <openssl/ssl.h>
#include <dlfcn.h>
#include <stdint.h>
#include <time.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

const long ccurl_pipe_multiplex = CURLPIPE_MULTIPLEX;
const long ccurl_http_version_2tls = CURL_HTTP_VERSION_2TLS;
const size_t ccurl_error_size = CURL_ERROR_SIZE;

CURLcode ccurl_global_init_once(void) {
    // OPENSSL_INIT_NO_ATEXIT (0x00080000): OpenSSL 1.1.1+. Looked up at run time so that the
    // shim does not link OpenSSL itself; libcurl's OpenSSL flavour has already loaded it.
    typedef int (*openssl_init_fn)(uint64_t, const void *);
    openssl_init_fn init = (openssl_init_fn)dlsym(RTLD_DEFAULT, "OPENSSL_init_crypto");
    if (init != NULL) {
        init(0x00080000L, NULL);
    }
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

CURLcode ccurl_easy_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
CURLcode ccurl_easy_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}
CURLcode ccurl_easy_set_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}
CURLcode ccurl_easy_set_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}
CURLcode ccurl_easy_set_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(easy, option, value);
}
CURLcode ccurl_easy_set_data_callback(CURL *easy, CURLoption option, ccurl_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

CURLcode ccurl_easy_get_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}
CURLcode ccurl_easy_get_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}
CURLcode ccurl_easy_get_string(CURL *easy, CURLINFO info, const char **value) {
    char *result = NULL;
    CURLcode code = curl_easy_getinfo(easy, info, &result);
    *value = result;
    return code;
}
CURLcode ccurl_easy_get_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLMcode ccurl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

int ccurl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

CURLcode ccurl_easy_set_prereq_callback(CURL *easy, ccurl_prereq_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, callback);
}

int ccurl_easy_connection_multiplexes(CURL *easy) {
    struct curl_tlssessioninfo *session = NULL;
    if (curl_easy_getinfo(easy, CURLINFO_TLS_SSL_PTR, &session) != CURLE_OK || session == NULL) return -1;
    if (session->backend != CURLSSLBACKEND_OPENSSL || session->internals == NULL) return -1;
    const unsigned char *protocol = NULL;
    unsigned int length = 0;
    SSL_get0_alpn_selected((SSL *)session->internals, &protocol, &length);
    return length == 2 && protocol[0] == 'h' && protocol[1] == '2';
}

int ccurl_easy_peer_certificate_expiry(CURL *easy, int64_t *not_after) {
    struct curl_tlssessioninfo *session = NULL;
    if (curl_easy_getinfo(easy, CURLINFO_TLS_SSL_PTR, &session) != CURLE_OK || session == NULL) return 0;
    if (session->backend != CURLSSLBACKEND_OPENSSL || session->internals == NULL) return 0;
    SSL *ssl = (SSL *)session->internals;
    // The earliest notAfter of the chain the connection was verified with (an intermediate may
    // lapse before the leaf); the leaf alone when no verified chain is at hand.
    STACK_OF(X509) *chain = SSL_get0_verified_chain(ssl);
    int count = chain == NULL ? 0 : sk_X509_num(chain);
    int found = 0;
    int64_t earliest = 0;
    for (int index = -1; index < count; index++) {
        X509 *certificate = index < 0 ? (count == 0 ? SSL_get0_peer_certificate(ssl) : NULL)
                                      : sk_X509_value(chain, index);
        if (certificate == NULL) continue;
        const ASN1_TIME *time = X509_get0_notAfter(certificate);
        struct tm parts;
        if (time == NULL || ASN1_TIME_to_tm(time, &parts) != 1) continue;
        int64_t value = (int64_t)timegm(&parts);
        if (!found || value < earliest) earliest = value;
        found = 1;
    }
    if (!found) return 0;
    *not_after = earliest;
    return 1;
}

int ccurl_easy_tls_session(CURL *easy, char *version, size_t version_size, char *cipher, size_t cipher_size) {
    struct curl_tlssessioninfo *session = NULL;
    if (version_size == 0 || cipher_size == 0) return 0;
    if (curl_easy_getinfo(easy, CURLINFO_TLS_SSL_PTR, &session) != CURLE_OK || session == NULL) return 0;
    if (session->backend != CURLSSLBACKEND_OPENSSL || session->internals == NULL) return 0;
    SSL *ssl = (SSL *)session->internals;
    const SSL_CIPHER *current = SSL_get_current_cipher(ssl);
    const char *version_name = SSL_get_version(ssl);
    const char *cipher_name = current == NULL ? NULL : SSL_CIPHER_get_name(current);
    if (version_name == NULL || cipher_name == NULL) return 0;
    snprintf(version, version_size, "%s", version_name);
    snprintf(cipher, cipher_size, "%s", cipher_name);
    return 1;
}

static curl_socket_t ccurl_open_checked_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)purpose;
    const struct ccurl_connection_hooks *hooks = clientp;
    int allowed = 0;
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)&address->addr;
        allowed = hooks->check(hooks->userdata, AF_INET, (const unsigned char *)&v4->sin_addr, 4);
    } else if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&address->addr;
        allowed = hooks->check(hooks->userdata, AF_INET6, (const unsigned char *)&v6->sin6_addr, 16);
    }
    if (!allowed) return CURL_SOCKET_BAD;
    // Close-on-exec, so that a process started meanwhile cannot hold the connection open after
    // curl has closed it (and the politeness gate has counted it out).
    curl_socket_t made = socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
    if (hooks->opened != NULL) hooks->opened(hooks->userdata, made);
    return made;
}

static int ccurl_resolver_start(void *resolver_state, void *reserved, void *userp) {
    (void)resolver_state;
    (void)reserved;
    const struct ccurl_connection_hooks *hooks = userp;
    return hooks->resolving == NULL ? 0 : hooks->resolving(hooks->userdata);
}

CURLcode ccurl_easy_set_connection_hooks(CURL *easy, struct ccurl_connection_hooks *hooks) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, ccurl_open_checked_socket);
    if (code == CURLE_OK) code = curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, hooks);
    if (code == CURLE_OK) code = curl_easy_setopt(easy, CURLOPT_RESOLVER_START_FUNCTION, ccurl_resolver_start);
    if (code == CURLE_OK) code = curl_easy_setopt(easy, CURLOPT_RESOLVER_START_DATA, hooks);
    return code;
}

static int ccurl_close_hooked_socket(void *clientp, curl_socket_t item) {
    const struct ccurl_socket_close_hook *hook = clientp;
    return hook->close(hook->userdata, item);
}

CURLcode ccurl_easy_set_socket_close_hook(CURL *easy, struct ccurl_socket_close_hook *hook) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, ccurl_close_hooked_socket);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, hook);
}

const char *ccurl_default_ca_file(void) {
    return curl_version_info(CURLVERSION_NOW)->cainfo;
}
