#include "CCMS.h"
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/pem.h>  // before cms.h, which declares its PEM functions only after it
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The opaque handles are OpenSSL's own objects, cast: a message is a CMS_ContentInfo, a trust
// an X509_STORE.
#define CMS_OF(message) ((CMS_ContentInfo *)(message))
#define STORE_OF(trust) ((X509_STORE *)(trust))

/// The oldest error OpenSSL queued (its reason string), then clears the queue.
static void take_error(char *error, size_t size, const char *fallback) {
    unsigned long code = ERR_peek_error();
    if (error != NULL && size > 0) {
        const char *reason = code != 0 ? ERR_reason_error_string(code) : NULL;
        snprintf(error, size, "%s", reason != NULL ? reason : fallback);
    }
    ERR_clear_error();
}

static void say(char *error, size_t size, const char *text) {
    if (error != NULL && size > 0) snprintf(error, size, "%s", text);
}

// ---- The digestAlgorithms walk --------------------------------------------------------------

/// One TLV's header at `*p` (before `end`): advances `*p` to its contents. 0 when malformed.
static int read_header(const unsigned char **p, const unsigned char *end, int *tag, int *xclass, long *length,
                       int *indefinite) {
    if (*p >= end) return 0;
    const unsigned char *q = *p;
    int result = ASN1_get_object(&q, length, tag, xclass, (long)(end - *p));
    if (result & 0x80) return 0;
    *indefinite = (result & 0x01) != 0;
    *p = q;
    return 1;
}

/// Skips a definite-length TLV's contents. 0 when it does not fit.
static int skip(const unsigned char **p, const unsigned char *end, long length, int indefinite) {
    if (indefinite || length < 0 || length > end - *p) return 0;
    *p += length;
    return 1;
}

/// Checks SignedData's digestAlgorithms before OpenSSL sees them: no algorithm twice, at most
/// CCMS_MAX_DIGEST_ALGORITHMS. Anything that is not SignedData, or that this walk cannot follow,
/// is left to OpenSSL's parser to judge (CCMS_PARSE_OK).
static ccms_parse_status check_digest_algorithms(const unsigned char *der, size_t size) {
    static const unsigned char signed_data_oid[] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02};
    const unsigned char *p = der, *end = der + size;
    int tag, xclass, indefinite;
    long length;
    // ContentInfo ::= SEQUENCE { contentType OID, content [0] EXPLICIT SignedData }
    if (!read_header(&p, end, &tag, &xclass, &length, &indefinite) || tag != V_ASN1_SEQUENCE) return CCMS_PARSE_OK;
    if (!read_header(&p, end, &tag, &xclass, &length, &indefinite) || tag != V_ASN1_OBJECT) return CCMS_PARSE_OK;
    if (length != (long)sizeof signed_data_oid || length > end - p || memcmp(p, signed_data_oid, sizeof signed_data_oid) != 0)
        return CCMS_PARSE_OK;
    p += length;
    if (!read_header(&p, end, &tag, &xclass, &length, &indefinite) || xclass != V_ASN1_CONTEXT_SPECIFIC || tag != 0)
        return CCMS_PARSE_OK;
    // SignedData ::= SEQUENCE { version INTEGER, digestAlgorithms SET OF AlgorithmIdentifier, ... }
    if (!read_header(&p, end, &tag, &xclass, &length, &indefinite) || tag != V_ASN1_SEQUENCE) return CCMS_PARSE_OK;
    if (!read_header(&p, end, &tag, &xclass, &length, &indefinite) || tag != V_ASN1_INTEGER) return CCMS_PARSE_OK;
    if (!skip(&p, end, length, indefinite)) return CCMS_PARSE_OK;
    if (!read_header(&p, end, &tag, &xclass, &length, &indefinite) || tag != V_ASN1_SET) return CCMS_PARSE_OK;
    const unsigned char *set_end = indefinite ? end : (length <= end - p ? p + length : end);

    const unsigned char *seen[CCMS_MAX_DIGEST_ALGORITHMS];
    size_t seen_length[CCMS_MAX_DIGEST_ALGORITHMS];
    int count = 0;
    while (p < set_end) {
        if (indefinite && set_end - p >= 2 && p[0] == 0 && p[1] == 0) break;  // end of contents
        const unsigned char *start = p;
        if (!read_header(&p, set_end, &tag, &xclass, &length, &indefinite) || indefinite) return CCMS_PARSE_UNREADABLE;
        if (!skip(&p, set_end, length, 0)) return CCMS_PARSE_UNREADABLE;
        size_t element = (size_t)(p - start);
        for (int i = 0; i < count; i++) {
            if (seen_length[i] == element && memcmp(seen[i], start, element) == 0) return CCMS_PARSE_DUPLICATE_DIGEST;
        }
        if (count == CCMS_MAX_DIGEST_ALGORITHMS) return CCMS_PARSE_TOO_MANY_PARTS;
        seen[count] = start;
        seen_length[count] = element;
        count++;
    }
    return CCMS_PARSE_OK;
}

// ---- Parsing ---------------------------------------------------------------------------------

/// The DER inside the first PEM block of `bytes`, read without decrypting anything: OpenSSL's
/// generic PEM reader, which never calls a pass-phrase callback. Caller frees `*der`.
static ccms_parse_status pem_to_der(const unsigned char *bytes, size_t length, unsigned char **der, long *der_length,
                                    char *error, size_t error_size) {
    BIO *input = BIO_new_mem_buf(bytes, (int)length);
    if (input == NULL) {
        take_error(error, error_size, "out of memory");
        return CCMS_PARSE_UNREADABLE;
    }
    char *name = NULL, *header = NULL;
    int read = PEM_read_bio(input, &name, &header, der, der_length);
    BIO_free(input);
    if (read != 1) {
        take_error(error, error_size, "not a PEM block");
        return CCMS_PARSE_UNREADABLE;
    }
    ccms_parse_status status = CCMS_PARSE_OK;
    if (header != NULL && strstr(header, "ENCRYPTED") != NULL) {
        status = CCMS_PARSE_PEM_ENCRYPTED;
        say(error, error_size, "an encrypted PEM block");
    } else if (strcmp(name, PEM_STRING_PKCS7) != 0 && strcmp(name, PEM_STRING_CMS) != 0) {
        status = CCMS_PARSE_PEM_LABEL;
        say(error, error_size, name);
    }
    OPENSSL_free(name);
    OPENSSL_free(header);
    if (status != CCMS_PARSE_OK) {
        OPENSSL_free(*der);
        *der = NULL;
    }
    return status;
}

ccms_message *ccms_parse(const unsigned char *bytes, size_t length, int pem, ccms_parse_status *status, char *error,
                         size_t error_size) {
    ERR_clear_error();
    *status = CCMS_PARSE_UNREADABLE;
    if (length > 0x7fffffff) {
        say(error, error_size, "too large");
        return NULL;
    }
    unsigned char *pem_der = NULL;
    const unsigned char *der = bytes;
    long der_length = (long)length;
    if (pem) {
        *status = pem_to_der(bytes, length, &pem_der, &der_length, error, error_size);
        if (*status != CCMS_PARSE_OK) return NULL;
        der = pem_der;
    }
    CMS_ContentInfo *cms = NULL;
    *status = check_digest_algorithms(der, (size_t)der_length);
    if (*status == CCMS_PARSE_OK) {
        const unsigned char *cursor = der;
        cms = d2i_CMS_ContentInfo(NULL, &cursor, der_length);
        if (cms == NULL) {
            *status = CCMS_PARSE_UNREADABLE;
            take_error(error, error_size, "not a CMS structure");
        }
    } else if (*status == CCMS_PARSE_UNREADABLE) {
        say(error, error_size, "its list of digest algorithms cannot be read");
    }
    OPENSSL_free(pem_der);
    if (cms != NULL && (ccms_signer_count((ccms_message *)cms) > CCMS_MAX_SIGNERS ||
                        ccms_certificate_count((ccms_message *)cms) > CCMS_MAX_CERTIFICATES)) {
        *status = CCMS_PARSE_TOO_MANY_PARTS;
        CMS_ContentInfo_free(cms);
        cms = NULL;
    }
    return (ccms_message *)cms;
}

void ccms_free(ccms_message *message) {
    CMS_ContentInfo_free(CMS_OF(message));
}

ccms_kind ccms_message_kind(const ccms_message *message) {
    switch (OBJ_obj2nid(CMS_get0_type(CMS_OF(message)))) {
    case NID_pkcs7_signed: return CCMS_SIGNED_DATA;
    case NID_pkcs7_enveloped: return CCMS_ENVELOPED_DATA;
    default: return CCMS_OTHER;
    }
}

int ccms_content_is_data(const ccms_message *message, char *name, size_t name_size) {
    const ASN1_OBJECT *type = CMS_get0_eContentType(CMS_OF(message));
    if (type != NULL && OBJ_obj2nid(type) == NID_pkcs7_data) return 1;
    if (name != NULL && name_size > 0) {
        if (type == NULL || OBJ_obj2txt(name, (int)name_size, type, 0) <= 0) snprintf(name, name_size, "unknown");
    }
    return 0;
}

int ccms_content(const ccms_message *message, const unsigned char **content, size_t *length) {
    ASN1_OCTET_STRING **slot = CMS_get0_content(CMS_OF(message));
    if (slot == NULL || *slot == NULL) return 0;
    *content = ASN1_STRING_get0_data(*slot);
    *length = (size_t)ASN1_STRING_length(*slot);
    return 1;
}

int ccms_certificate_count(const ccms_message *message) {
    STACK_OF(X509) *certificates = CMS_get1_certs(CMS_OF(message));
    int count = certificates == NULL ? 0 : sk_X509_num(certificates);
    sk_X509_pop_free(certificates, X509_free);
    return count;
}

int ccms_signer_count(const ccms_message *message) {
    STACK_OF(CMS_SignerInfo) *signers = CMS_get0_SignerInfos(CMS_OF(message));
    return signers == NULL ? 0 : sk_CMS_SignerInfo_num(signers);
}

// ---- Verifying -------------------------------------------------------------------------------

int ccms_verify_signature(ccms_message *message, char *error, size_t error_size) {
    ERR_clear_error();
    int ok = CMS_verify(CMS_OF(message), NULL, NULL, NULL, NULL, CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY);
    if (ok != 1) take_error(error, error_size, "the signature does not verify");
    return ok == 1;
}

/// A digest's security in a signature, as OpenSSL rates it (MD5 and SHA-1 by their known
/// collision attacks, others by half their output).
static int digest_security_bits(int nid) {
    switch (nid) {
    case NID_md2: case NID_md4: return 0;
    case NID_md5: case NID_md5_sha1: return 39;
    case NID_sha1: return 63;
    default: break;
    }
    const EVP_MD *digest = EVP_get_digestbynid(nid);
    return digest != NULL ? EVP_MD_get_size(digest) * 4 : 0;
}

int ccms_signer_algorithms_at(ccms_message *message, int index, ccms_signer_algorithms *algorithms) {
    memset(algorithms, 0, sizeof *algorithms);
    STACK_OF(CMS_SignerInfo) *infos = CMS_get0_SignerInfos(CMS_OF(message));
    if (infos == NULL || index < 0 || index >= sk_CMS_SignerInfo_num(infos)) return 0;
    EVP_PKEY *key = NULL;
    X509_ALGOR *digest = NULL;
    CMS_SignerInfo_get0_algs(sk_CMS_SignerInfo_value(infos, index), &key, NULL, &digest, NULL);
    if (digest != NULL) {
        const ASN1_OBJECT *object = NULL;
        X509_ALGOR_get0(&object, NULL, NULL, digest);
        int nid = OBJ_obj2nid(object);
        const char *name = nid != NID_undef ? OBJ_nid2sn(nid) : NULL;
        if (name != NULL) {
            snprintf(algorithms->digest, sizeof algorithms->digest, "%s", name);
        } else if (object == NULL || OBJ_obj2txt(algorithms->digest, (int)sizeof algorithms->digest, object, 1) <= 0) {
            snprintf(algorithms->digest, sizeof algorithms->digest, "unknown");
        }
        algorithms->digest_security_bits = digest_security_bits(nid);
    }
    if (key == NULL) return 0;
    const char *type = EVP_PKEY_get0_type_name(key);
    snprintf(algorithms->key_type, sizeof algorithms->key_type, "%s", type != NULL ? type : "unknown");
    algorithms->key_bits = EVP_PKEY_get_bits(key);
    algorithms->key_security_bits = EVP_PKEY_get_security_bits(key);
    return 1;
}

static void write_date(const ASN1_TIME *time, char *out, size_t size) {
    struct tm parts;
    if (time == NULL || ASN1_TIME_to_tm(time, &parts) != 1 || strftime(out, size, "%Y-%m-%d", &parts) == 0)
        snprintf(out, size, "?");
}

static ccms_chain_kind chain_kind(int code) {
    switch (code) {
    case X509_V_OK: return CCMS_CHAIN_OK;
    case X509_V_ERR_CERT_HAS_EXPIRED: return CCMS_CHAIN_EXPIRED;
    case X509_V_ERR_CERT_NOT_YET_VALID: return CCMS_CHAIN_NOT_YET_VALID;
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
        return CCMS_CHAIN_UNTRUSTED;
    case X509_V_ERR_EE_KEY_TOO_SMALL:
    case X509_V_ERR_CA_KEY_TOO_SMALL:
    case X509_V_ERR_CA_MD_TOO_WEAK:
        return CCMS_CHAIN_WEAK;
    default: return CCMS_CHAIN_OTHER;
    }
}

/// Verifies one signer's certificate; 1, or 0 with `result` filled in.
static int verify_one(X509 *certificate, X509_STORE *store, STACK_OF(X509) *untrusted, int level,
                      ccms_chain_result *result) {
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    if (context == NULL || X509_STORE_CTX_init(context, store, certificate, untrusted) != 1) {
        X509_STORE_CTX_free(context);
        result->kind = CCMS_CHAIN_OTHER;
        take_error(result->reason, sizeof result->reason, "out of memory");
        return 0;
    }
    X509_VERIFY_PARAM_set_auth_level(X509_STORE_CTX_get0_param(context), level);
    int ok = X509_verify_cert(context) == 1;
    if (!ok) {
        int code = X509_STORE_CTX_get_error(context);
        result->kind = chain_kind(code);
        if (result->kind == CCMS_CHAIN_OK) result->kind = CCMS_CHAIN_OTHER;
        snprintf(result->reason, sizeof result->reason, "%s", X509_verify_cert_error_string(code));
        result->depth = X509_STORE_CTX_get_error_depth(context);
        X509 *concerned = X509_STORE_CTX_get_current_cert(context);
        if (concerned == NULL) concerned = certificate;
        X509_NAME_oneline(X509_get_subject_name(concerned), result->subject, (int)sizeof result->subject);
        write_date(X509_get0_notBefore(concerned), result->not_before, sizeof result->not_before);
        write_date(X509_get0_notAfter(concerned), result->not_after, sizeof result->not_after);
    }
    X509_STORE_CTX_free(context);
    ERR_clear_error();
    return ok;
}

int ccms_verify_chain(ccms_message *message, const ccms_trust *trust, int level, ccms_chain_result *result) {
    memset(result, 0, sizeof *result);
    ERR_clear_error();
    STACK_OF(X509) *signers = CMS_get0_signers(CMS_OF(message));
    if (signers == NULL || sk_X509_num(signers) == 0) {
        sk_X509_free(signers);
        result->kind = CCMS_CHAIN_OTHER;
        say(result->reason, sizeof result->reason, "no signer certificate");
        return 0;
    }
    STACK_OF(X509) *untrusted = CMS_get1_certs(CMS_OF(message));
    int ok = 1;
    for (int i = 0; ok && i < sk_X509_num(signers); i++) {
        ok = verify_one(sk_X509_value(signers, i), STORE_OF(trust), untrusted, level, result);
    }
    sk_X509_pop_free(untrusted, X509_free);
    sk_X509_free(signers);
    return ok;
}

/// The first signer's certificate, as set by CMS_verify; NULL before one ran.
static X509 *first_signer(ccms_message *message) {
    STACK_OF(CMS_SignerInfo) *infos = CMS_get0_SignerInfos(CMS_OF(message));
    if (infos == NULL || sk_CMS_SignerInfo_num(infos) < 1) return NULL;
    X509 *certificate = NULL;
    CMS_SignerInfo_get0_algs(sk_CMS_SignerInfo_value(infos, 0), NULL, &certificate, NULL, NULL);
    return certificate;
}

int ccms_signer_subject(ccms_message *message, char *subject, size_t subject_size) {
    X509 *certificate = first_signer(message);
    if (certificate == NULL || subject_size == 0) return 0;
    BIO *output = BIO_new(BIO_s_mem());
    if (output == NULL) return 0;
    X509_NAME_print_ex(output, X509_get_subject_name(certificate), 0, XN_FLAG_ONELINE & ~ASN1_STRFLGS_ESC_MSB);
    int written = BIO_read(output, subject, (int)subject_size - 1);
    BIO_free(output);
    subject[written > 0 ? written : 0] = '\0';
    return 1;
}

int ccms_signer_matches_host(ccms_message *message, const char *host) {
    X509 *certificate = first_signer(message);
    if (certificate == NULL) return -1;
    return X509_check_host(certificate, host, 0, 0, NULL) == 1;
}

ccms_trust *ccms_trust_load(const char *path, char *error, size_t error_size) {
    ERR_clear_error();
    X509_STORE *store = X509_STORE_new();
    if (store == NULL || X509_STORE_load_file(store, path) != 1) {
        X509_STORE_free(store);
        take_error(error, error_size, "cannot load the CA certificates");
        return NULL;
    }
    X509_STORE_set_purpose(store, X509_PURPOSE_ANY);
    return (ccms_trust *)store;
}

void ccms_trust_free(ccms_trust *trust) {
    X509_STORE_free(STORE_OF(trust));
}
