#include "CCMS.h"
#include <openssl/bio.h>
#include <openssl/pem.h>  // before cms.h, which declares its PEM functions only after it
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <stdio.h>
#include <stdlib.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>

// The opaque handles are OpenSSL's own objects, cast: a message is a CMS_ContentInfo, a trust
// an X509_STORE.
#define CMS_OF(message) ((CMS_ContentInfo *)(message))
#define STORE_OF(trust) ((X509_STORE *)(trust))

/// The oldest error OpenSSL queued (its reason string), then clears the queue.
static void take_error(char *error, size_t size, const char *fallback) {
    unsigned long code = ERR_peek_error();
    if (error != NULL && size > 0) {
        if (code != 0) {
            const char *reason = ERR_reason_error_string(code);
            snprintf(error, size, "%s", reason != NULL ? reason : fallback);
        } else {
            snprintf(error, size, "%s", fallback);
        }
    }
    ERR_clear_error();
}

ccms_message *ccms_parse(const unsigned char *bytes, size_t length, int pem, char *error, size_t error_size) {
    ERR_clear_error();
    BIO *input = BIO_new_mem_buf(bytes, (int)length);
    if (input == NULL) {
        take_error(error, error_size, "out of memory");
        return NULL;
    }
    CMS_ContentInfo *cms = pem ? PEM_read_bio_CMS(input, NULL, NULL, NULL) : d2i_CMS_bio(input, NULL);
    BIO_free(input);
    if (cms == NULL) take_error(error, error_size, "not a CMS structure");
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

int ccms_verify_signature(ccms_message *message, char *error, size_t error_size) {
    ERR_clear_error();
    int ok = CMS_verify(CMS_OF(message), NULL, NULL, NULL, NULL, CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY);
    if (ok != 1) take_error(error, error_size, "the signature does not verify");
    return ok == 1;
}

int ccms_verify_chain(ccms_message *message, const ccms_trust *trust, char *error, size_t error_size) {
    ERR_clear_error();
    int ok = CMS_verify(CMS_OF(message), NULL, STORE_OF(trust), NULL, NULL, CMS_BINARY);
    if (ok != 1) take_error(error, error_size, "the signer's certificate does not verify");
    return ok == 1;
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
