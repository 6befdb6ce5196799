"""termscribe: safe transcripts of untrusted terminal byte streams."""
