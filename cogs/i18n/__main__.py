"""``python -m cogs.i18n``: extract the ids in use, update the translated catalogues, report."""

import sys

from cogs.i18n.tool import main

sys.exit(main())
