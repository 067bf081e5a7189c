// Every test process starts with the Node 22 polyfills, as every entry point does.
import '../../lambdas/platform/polyfills';
