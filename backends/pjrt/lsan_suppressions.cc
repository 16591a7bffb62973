// LeakSanitizer suppressions of the pjrt tests under --config=asan: XLA's
// CPU plugin keeps a few small allocations of its compiler (from inside
// PJRT_Client_Compile) for the life of the process. Only stacks through
// the plugin's own module are suppressed; Kiln's allocations stay checked.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:xla_cpu_plugin.so\n"
         "leak:pjrt_c_api_cpu_plugin.so\n";
}
