"""What stands at the app's door, for every feature: security headers and trusted proxies,
CSRF, body size, strict JSON, redaction of secrets in logs, limits per address, and the
validated messages of the sockets."""
