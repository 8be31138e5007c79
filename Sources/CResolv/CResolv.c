#include "CResolv.h"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netinet/in.h>
#include <resolv.h>
#include <string.h>

int cresolv_ask(const char *name, const char *server, int port, int timeout_seconds, int *rcode, int *answers) {
    struct __res_state state;
    memset(&state, 0, sizeof state);
    if (res_ninit(&state) != 0) return -1;
    state.retrans = timeout_seconds > 0 ? timeout_seconds : 1;
    state.retry = 1;
    // Keep a SERVFAIL, NOTIMP or REFUSED answer instead of trying the next server and failing
    // (glibc's res_nsend does so for dig, which sets a print flag): the code is what is asked.
    state.pfcode = RES_PRF_HEAD1;
    if (server != NULL) {
        struct sockaddr_in address;
        memset(&address, 0, sizeof address);
        address.sin_family = AF_INET;
        address.sin_port = htons((unsigned short)port);
        if (inet_pton(AF_INET, server, &address.sin_addr) != 1) {
            res_nclose(&state);
            return -1;
        }
        state.nscount = 1;
        state.nsaddr_list[0] = address;
    }
    unsigned char query[NS_PACKETSZ];
    unsigned char answer[NS_PACKETSZ * 4];
    int length = res_nmkquery(&state, ns_o_query, name, ns_c_in, ns_t_a, NULL, 0, NULL, query, sizeof query);
    int received = length > 0 ? res_nsend(&state, query, length, answer, sizeof answer) : -1;
    res_nclose(&state);
    if (received < NS_HFIXEDSZ) return -1;
    *rcode = answer[3] & 0x0F;
    *answers = (answer[6] << 8) | answer[7];
    return 0;
}
