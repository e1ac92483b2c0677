"""Writing mail: outgoing messages as bytes (compose), addresses as the wire takes them,
pictures as PNG. Pure functions, nothing of the game, the store or transport; the mirror of
mailref.read."""
