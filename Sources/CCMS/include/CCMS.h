// Typed access to OpenSSL's CMS (PKCS#7) implementation, for signed association files:
// parse, take the content, verify. Nothing here parses ASN.1 itself.
#ifndef CCMS_H
#define CCMS_H

#include <stddef.h>

/// A parsed CMS ContentInfo; opaque.
typedef struct ccms_message ccms_message;
/// A set of trusted CA certificates; opaque. Read-only once loaded: safe to share.
typedef struct ccms_trust ccms_trust;

/// The kind of CMS structure a message is.
typedef enum {
    CCMS_SIGNED_DATA = 1,
    CCMS_ENVELOPED_DATA = 2,
    CCMS_OTHER = 3,
} ccms_kind;

/// Parses DER, or PEM (`-----BEGIN PKCS7-----` / `-----BEGIN CMS-----`) when `pem` is 1.
/// NULL on failure, with OpenSSL's reason in `error`.
ccms_message *ccms_parse(const unsigned char *bytes, size_t length, int pem, char *error, size_t error_size);
void ccms_free(ccms_message *message);

ccms_kind ccms_message_kind(const ccms_message *message);

/// The signed (encapsulated) content: 1 and a pointer valid while the message lives, or 0 when
/// the signature is detached (there is no content).
int ccms_content(const ccms_message *message, const unsigned char **content, size_t *length);

int ccms_certificate_count(const ccms_message *message);
int ccms_signer_count(const ccms_message *message);

/// Checks the signatures over the content alone, not who signed: 1 when they verify; 0 with
/// the reason in `error`.
int ccms_verify_signature(ccms_message *message, char *error, size_t error_size);

/// Checks the signatures and that each signer's certificate chains to `trust` (any
/// certificate purpose: iOS 8 accepted the site's TLS certificate): 1 or 0 with the reason.
int ccms_verify_chain(ccms_message *message, const ccms_trust *trust, char *error, size_t error_size);

/// The first signer's certificate, once a verify call has found it: its subject as one line
/// (1, written to `subject`), or 0 when there is none.
int ccms_signer_subject(ccms_message *message, char *subject, size_t subject_size);

/// Whether the first signer's certificate is valid for `host` (its SAN, as TLS checks it):
/// 1 yes, 0 no, -1 no signer certificate.
int ccms_signer_matches_host(ccms_message *message, const char *host);

/// Loads a PEM bundle of CA certificates. NULL with the reason on failure.
ccms_trust *ccms_trust_load(const char *path, char *error, size_t error_size);
void ccms_trust_free(ccms_trust *trust);

#endif
