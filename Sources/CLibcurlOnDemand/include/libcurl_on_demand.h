// Nothing to import: this target only defines libcurl's functions that
// FoundationNetworking calls, so that authcat-cli loads libcurl on first use
// (see libcurl_on_demand.c). SwiftPM wants a public header folder for a C target.
