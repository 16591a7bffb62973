// A shared object that is not a PJRT plugin: it exports no GetPjrtApi.
extern "C" int NotAPjrtPlugin() { return 42; }
