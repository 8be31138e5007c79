// OpenSSL's libcrypto: the same library Debian's libcurl4-openssl links for TLS.
#include <openssl/evp.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/err.h>
