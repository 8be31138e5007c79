// Scripts/sanitize.sh's planted fault: libpsl's answer read after the C string it points into
// was freed (the bug of issue 54), built with the same sanitizer. The pass must fail on it,
// which proves that the sanitizer is on and that its reports are read.
import CPSL

let context = psl_builtin() ?? psl_latest(nil)
let host = "login.an-ordinary-shop-name.com"
let found = psl_registrable_domain(context, host)  // a temporary C string, freed on return
print(found.map { String(cString: $0) } ?? "none")
