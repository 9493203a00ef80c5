// Placeholder so the build configures while the driver core is written (replaced by the core).
int main() { return 0; }
