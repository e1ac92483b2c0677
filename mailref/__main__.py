from mailref.cli import main

raise SystemExit(main())
