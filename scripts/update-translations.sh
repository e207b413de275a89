#!/usr/bin/env bash
# Extract every message of the app (_(), ngettext(), pgettext(), N_() and the English templates given to
# RuleError, Phrase and the store's StoreError, StaleError and NotFoundError), merge it into
# the Dutch, German and French catalogues (creating a catalogue the first time) and compile
# them to .mo files.
#
#   scripts/update-translations.sh            extract, update and compile
#   scripts/update-translations.sh --compile  only compile the .po files as they are
#
# Translators edit companion/locale/<lang>/LC_MESSAGES/companion.po; run the script again
# to compile. Environment: PYBABEL (default .venv/bin/pybabel), LOCALE_DIR (default
# companion/locale).
set -euo pipefail
cd "$(dirname "$0")/.."

PYBABEL="${PYBABEL:-.venv/bin/pybabel}"
LOCALE_DIR="${LOCALE_DIR:-companion/locale}"
DOMAIN=companion
LANGUAGES=(nl de fr)
TEMPLATE="$LOCALE_DIR/$DOMAIN.pot"

if [[ "${1:-}" != "--compile" ]]; then
    mkdir -p "$LOCALE_DIR"
    "$PYBABEL" extract --mapping-file=babel.cfg --keywords=_ --keywords=ngettext:1,2 --keywords=pgettext:1c,2 --keywords=N_ \
        --keywords=RuleError:1 --keywords=Phrase:1 \
        --keywords=StoreError:1 --keywords=StaleError:1 --keywords=NotFoundError:1 \
        --project=Companion --copyright-holder="Companion contributors" \
        --sort-by-file --width=100 --output-file="$TEMPLATE" companion
    for lang in "${LANGUAGES[@]}"; do
        if [[ -f "$LOCALE_DIR/$lang/LC_MESSAGES/$DOMAIN.po" ]]; then
            "$PYBABEL" update --input-file="$TEMPLATE" --output-dir="$LOCALE_DIR" --domain="$DOMAIN" \
                --locale="$lang" --width=100 --no-fuzzy-matching --ignore-obsolete
        else
            "$PYBABEL" init --input-file="$TEMPLATE" --output-dir="$LOCALE_DIR" --domain="$DOMAIN" \
                --locale="$lang" --width=100
        fi
    done
fi
"$PYBABEL" compile --directory="$LOCALE_DIR" --domain="$DOMAIN" --statistics
