"""Code the tests share: mail as players write it, the real servers the suite runs, clients."""
