// OpenSSL's libcrypto: the same library Debian's libcurl4-openssl links for TLS.
#include <openssl/evp.h>
