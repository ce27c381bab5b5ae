// The core's API includes the shared essentials (accounts, OTP, crypto), so
// that every layer above imports `AuthCatCore` alone.
@_exported import AuthCatEssentials
