/* Stands for a prebuilt library: scripts/test-plugins archives it (libtag.a) and links it through
 * LDLIBS, after the plugin's objects. */
const char *library_tag(void) { return "tag-1.2"; }
