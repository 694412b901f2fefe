from rtok.cli.entry import main

raise SystemExit(main())
