// Typed access to OpenSSL's CMS (PKCS#7) implementation, for signed association files:
// parse, take the content, verify. The only ASN.1 read here is a bounded walk to the
// digestAlgorithms list, which must be checked before OpenSSL builds one digest per entry.
//
// Nothing here can prompt: PEM is read with OpenSSL's generic reader (no decryption, so no
// pass-phrase callback is ever reached) and an encrypted block is refused by its header.
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

/// Why a body could not be parsed.
typedef enum {
    CCMS_PARSE_OK = 0,
    /// Not a CMS structure OpenSSL can read; `error` says why.
    CCMS_PARSE_UNREADABLE = 1,
    /// A PEM block with `Proc-Type: 4,ENCRYPTED`: it would need a pass phrase.
    CCMS_PARSE_PEM_ENCRYPTED = 2,
    /// A PEM block of another kind; `error` holds its label.
    CCMS_PARSE_PEM_LABEL = 3,
    /// digestAlgorithms names one algorithm more than once.
    CCMS_PARSE_DUPLICATE_DIGEST = 4,
    /// More digest algorithms, signers or certificates than the limits below.
    CCMS_PARSE_TOO_MANY_PARTS = 5,
} ccms_parse_status;

/// At most this many digest algorithms, signers, and certificates in one file: a real signed
/// association file has one digest, one signer and a short chain. OpenSSL chains one digest
/// BIO per listed algorithm and reads the content through all of them, so an unbounded list
/// costs time quadratic in the file's size (and recursion deep enough to overflow the stack).
#define CCMS_MAX_DIGEST_ALGORITHMS 4
#define CCMS_MAX_SIGNERS 4
#define CCMS_MAX_CERTIFICATES 16

/// Parses DER, or PEM (`-----BEGIN PKCS7-----` / `-----BEGIN CMS-----`) when `pem` is 1.
/// NULL on failure, with the status and OpenSSL's reason in `error`.
ccms_message *ccms_parse(const unsigned char *bytes, size_t length, int pem, ccms_parse_status *status, char *error,
                         size_t error_size);
void ccms_free(ccms_message *message);

ccms_kind ccms_message_kind(const ccms_message *message);

/// 1 when the signed content's type is id-data (a plain file), else 0 with the type's name
/// or dotted OID in `name`.
int ccms_content_is_data(const ccms_message *message, char *name, size_t name_size);

/// The signed (encapsulated) content: 1 and a pointer valid while the message lives, or 0 when
/// the signature is detached (there is no content).
int ccms_content(const ccms_message *message, const unsigned char **content, size_t *length);

int ccms_certificate_count(const ccms_message *message);
int ccms_signer_count(const ccms_message *message);

/// Checks the signatures over the content alone, not who signed: 1 when they verify; 0 with
/// the reason in `error`.
int ccms_verify_signature(ccms_message *message, char *error, size_t error_size);

/// What one signer used, once `ccms_verify_signature` has found its certificate.
typedef struct {
    /// The digest's short name ("SHA256", "MD5") and its security in bits, as OpenSSL rates a
    /// digest in a signature: 39 for MD5, 63 for SHA-1, else half its output size.
    char digest[32];
    int digest_security_bits;
    /// The key's type ("RSA", "EC", "ED25519"), size and security in bits (OpenSSL's
    /// EVP_PKEY_get_security_bits: RSA 2048 is 112). 0 bits when unknown.
    char key_type[32];
    int key_bits;
    int key_security_bits;
} ccms_signer_algorithms;

/// The algorithms of signer `index`: 1, or 0 when there is no such signer or certificate.
int ccms_signer_algorithms_at(ccms_message *message, int index, ccms_signer_algorithms *algorithms);

/// What judging a signer's certificate chain found.
typedef enum {
    CCMS_CHAIN_OK = 0,
    /// A certificate of the chain has expired, or is not valid yet.
    CCMS_CHAIN_EXPIRED = 1,
    CCMS_CHAIN_NOT_YET_VALID = 2,
    /// No chain to a trusted CA (unknown issuer, self-signed).
    CCMS_CHAIN_UNTRUSTED = 3,
    /// A key or a certificate's signature digest is below the security level.
    CCMS_CHAIN_WEAK = 4,
    /// Anything else OpenSSL refused; `reason` says what.
    CCMS_CHAIN_OTHER = 5,
} ccms_chain_kind;

/// How a signer's certificate chain was judged.
typedef struct {
    ccms_chain_kind kind;
    /// OpenSSL's words for it, and the depth in the chain of the certificate concerned (0:
    /// the signer's own).
    char reason[128];
    int depth;
    /// The certificate concerned: its subject (one line) and validity (YYYY-MM-DD).
    char subject[256];
    char not_before[16];
    char not_after[16];
} ccms_chain_result;

/// Checks that each signer's certificate chains to `trust` (any certificate purpose: iOS 8
/// accepted the site's TLS certificate) at OpenSSL security level `level` (key sizes and
/// certificate signature digests along the chain): 1, or 0 with what failed in `result`.
/// Call after `ccms_verify_signature` succeeded.
int ccms_verify_chain(ccms_message *message, const ccms_trust *trust, int level, ccms_chain_result *result);

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
