namespace jointdyn::io {
const char* Version() { return "0.1.0"; }
}  // namespace jointdyn::io
