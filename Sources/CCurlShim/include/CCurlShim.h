// Typed wrappers over libcurl's variadic calls, which Swift cannot call directly.
// One function per argument kind; nothing here holds state.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H

#include <curl/curl.h>

/// A body or header callback: (data, size, nmemb, userdata) -> bytes taken.
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t nmemb, void *userdata);

/// Initialises libcurl once per process. Tells OpenSSL not to register its own atexit
/// cleanup first, so that process exit cannot race with a transfer thread's cleanup.
/// Returns CURLE_OK on success.
CURLcode ccurl_global_init_once(void);

CURLcode ccurl_easy_set_long(CURL *easy, CURLoption option, long value);
CURLcode ccurl_easy_set_offset(CURL *easy, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_set_string(CURL *easy, CURLoption option, const char *value);
CURLcode ccurl_easy_set_pointer(CURL *easy, CURLoption option, void *value);
CURLcode ccurl_easy_set_slist(CURL *easy, CURLoption option, struct curl_slist *value);
CURLcode ccurl_easy_set_data_callback(CURL *easy, CURLoption option, ccurl_data_callback callback);

CURLcode ccurl_easy_get_long(CURL *easy, CURLINFO info, long *value);
CURLcode ccurl_easy_get_offset(CURL *easy, CURLINFO info, curl_off_t *value);
/// The string is owned by the easy handle and valid until it is cleaned up; may be NULL.
CURLcode ccurl_easy_get_string(CURL *easy, CURLINFO info, const char **value);
CURLcode ccurl_easy_get_pointer(CURL *easy, CURLINFO info, void **value);

/// CURLOPT_PREREQFUNCTION: called once a transfer's connection is up (new or reused), before
/// its request is sent. Return CURL_PREREQFUNC_OK (0) to go on.
typedef int (*ccurl_prereq_callback)(void *userdata, char *primary_ip, char *local_ip, int primary_port, int local_port);
CURLcode ccurl_easy_set_prereq_callback(CURL *easy, ccurl_prereq_callback callback);

/// Whether the transfer's connection negotiated HTTP/2 by ALPN, so that further requests to its
/// host can be multiplexed on it: 1 yes, 0 no (HTTP/1.1), -1 unknown (no TLS session yet).
/// Valid from the PREREQFUNCTION on.
int ccurl_easy_connection_multiplexes(CURL *easy);

/// The earliest notAfter of the certificate chain the connection was verified with (the leaf,
/// its intermediates, the trust anchor; the leaf alone without a verified chain), in seconds
/// since 1970 (UTC): 1 and `not_after` set, or 0 when there is none (no TLS session yet, another
/// TLS backend). Valid from the PREREQFUNCTION on; cheap (no copy, no parse beyond the dates).
int ccurl_easy_peer_certificate_expiry(CURL *easy, int64_t *not_after);

/// The TLS version (`TLSv1.3`) and cipher suite (OpenSSL's name, `TLS_AES_128_GCM_SHA256`) the
/// connection negotiated, each written NUL-terminated into its buffer (cut to fit): 1, or 0 when
/// there is no TLS session yet (another TLS backend). Valid from the PREREQFUNCTION on.
int ccurl_easy_tls_session(CURL *easy, char *version, size_t version_size, char *cipher, size_t cipher_size);

/// A transfer's hooks into how curl connects, one context per transfer (it must outlive the
/// handle). `check` is asked for every socket curl is about to open, with the address it will
/// connect to (`family` AF_INET or AF_INET6, `address` its 4 or 16 bytes in network order):
/// return 1 to let curl have a socket, 0 to refuse the address (curl then tries the host's next
/// address, or fails with CURLE_COULDNT_CONNECT). `opened` then gets the socket made for an
/// allowed address (CURL_SOCKET_BAD when socket() failed). `resolving` is asked before each DNS
/// lookup curl starts (not for names its cache holds): return 0 to go on, 1 to fail the
/// transfer's lookup instead. Sockets of families other than IPv4 and IPv6 are refused.
typedef int (*ccurl_address_check)(void *userdata, int family, const unsigned char *address, size_t length);
typedef void (*ccurl_socket_opened)(void *userdata, curl_socket_t socket);
typedef int (*ccurl_resolver_starting)(void *userdata);
struct ccurl_connection_hooks {
    ccurl_address_check check;
    ccurl_socket_opened opened;
    ccurl_resolver_starting resolving;
    void *userdata;
};
CURLcode ccurl_easy_set_connection_hooks(CURL *easy, struct ccurl_connection_hooks *hooks);

/// CURLOPT_CLOSESOCKETFUNCTION, typed: `close` is given every socket curl closes, closes it and
/// returns close()'s result, so that whoever counts sockets counts one out only once it is shut
/// (another thread may get the same number at once). The context must outlive every connection
/// the handle makes: connections are cached, and closed after their transfer's handle is gone.
typedef int (*ccurl_socket_closer)(void *userdata, curl_socket_t socket);
struct ccurl_socket_close_hook {
    ccurl_socket_closer close;
    void *userdata;
};
CURLcode ccurl_easy_set_socket_close_hook(CURL *easy, struct ccurl_socket_close_hook *hook);

CURLMcode ccurl_multi_set_long(CURLM *multi, CURLMoption option, long value);

/// Takes the next finished transfer off the multi handle's message queue.
/// Returns 1 and fills `easy` and `result` when there was one, 0 when the queue is empty.
int ccurl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result);

/// The CA bundle libcurl was built to trust by default (CURLOPT_CAINFO's default), or NULL.
const char *ccurl_default_ca_file(void);

/// Constants that C defines through macros Swift does not import.
extern const long ccurl_pipe_multiplex;
extern const long ccurl_http_version_2tls;
extern const size_t ccurl_error_size;

#endif
