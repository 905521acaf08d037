"""``python -m i18n``: extract the ids in use, update the translated catalogues, report."""

import sys

from i18n.tool import main

sys.exit(main())
