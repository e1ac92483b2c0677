from mailref.cli import main

if __name__ == "__main__":  # not when the SMTP listener's process (spawned) imports this module
    raise SystemExit(main())
