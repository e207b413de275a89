#!/usr/bin/env bash
# Rebuild DejaVuSans-Companion.ttf: DejaVu Sans cut down to what the app draws, so a phone
# downloads about 55 KB instead of 760 KB. Needs Debian's fonts-dejavu-core and python3-fonttools
# (apt-get install fonts-dejavu-core python3-fonttools; Debian's own python3 runs it); not needed
# to run the app.
#
# Kept: Latin letters for English, Dutch, German and French (Basic Latin, Latin-1, Latin
# Extended-A), general punctuation, the euro sign, arrows, the minus, multiplication and
# comparison signs, geometric shapes (squares, circles, diamonds), card suits and chess
# pieces, the umbrella, cup and weather symbols, stars, check marks and ballot crosses.
set -euo pipefail
cd "$(dirname "$0")"
/usr/bin/python3 -m fontTools.subset /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
  --unicodes="U+0020-007E,U+00A0-017F,U+2010-2027,U+2030-203A,U+20AC,U+2122,U+2190-2195,U+2212,U+221E,U+2248,U+2260-2265,U+25A0-25FF,U+2600-2615,U+2654-2667,U+2713-2718" \
  --layout-features='kern,liga,mark,mkmk,ccmp,locl' \
  --no-hinting --desubroutinize \
  --output-file=DejaVuSans-Companion.ttf
