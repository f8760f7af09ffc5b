"""Correction cues and refresh commands in each language of the lexicon."""

from __future__ import annotations

from typing import List, Tuple

import pytest

from turnsignal.drift.cues import find_corrections, find_refresh_commands, masked
from turnsignal.drift.lexicon import (
    CJK_LANGUAGES,
    CORRECTION_CUES,
    EXCLUSIONS,
    LANGUAGES,
    REFRESH_COMMANDS,
)

CORRECTIONS: List[Tuple[str, str, str]] = [
    ("en", "No, that's wrong, the port is 8080.", "that's wrong"),
    ("en", "I already told you we use Postgres.", "i already told you"),
    ("en", "We moved to Azure in May.", "we moved to"),
    ("en", "Actually, it's 16 GB, not 8.", "actually it's"),
    ("en", "We no longer use Jenkins.", "we no longer use"),
    ("en", "That\u2019s not right, the limit is ten.", "that's not right"),  # curly apostrophe
    ("zh", "不对，我们已经迁移到了 PostgreSQL。", "已经迁移到"),
    ("zh", "我已经说过了，预算是五千。", "我已经说过"),
    ("ja", "それは違います、予算は5万円です。", "それは違います"),
    ("ja", "もうMySQLは使っていません。PostgreSQLに移行しました。", "に移行しました"),
    ("ko", "이미 말했잖아요, 예산은 오백만 원이에요.", "이미 말했"),
    ("ko", "우리는 작년에 AWS로 옮겼어요.", "로 옮겼"),
    ("es", "Eso no es correcto, el plazo es de 30 días.", "eso no es correcto"),
    ("es", "Ya no usamos MySQL.", "ya no usamos"),
    ("de", "Das stimmt nicht, der Termin ist am Montag.", "das stimmt nicht"),
    ("de", "Wir sind letztes Jahr auf Linux umgestiegen.", "umgestiegen"),
    ("fr", "C'est faux, la réunion est jeudi.", "c'est faux"),
    ("fr", "Nous n'utilisons plus Slack.", "nous n'utilisons plus"),
]

COMMANDS: List[Tuple[str, str, str]] = [
    ("en", "Please look it up again, the page changed.", "look it up again"),
    ("zh", "数据可能过期了，请重新检索。", "重新检索"),
    ("ja", "最新の情報を取得してから答えてください。", "最新の情報を取得"),
    ("ko", "최신 정보로 다시 알려 주세요.", "최신 정보로 다시"),
    ("es", "Vuelve a buscar los precios, por favor.", "vuelve a buscar"),
    ("de", "Such noch einmal nach dem aktuellen Stand.", "such noch einmal"),
    ("fr", "Vérifie à nouveau les horaires.", "vérifie à nouveau"),
]


@pytest.mark.parametrize(("language", "text", "phrase"), CORRECTIONS)
def test_correction_cues(language: str, text: str, phrase: str) -> None:
    found = find_corrections(text)
    assert (phrase, language) in [(m.phrase, m.language) for m in found]


@pytest.mark.parametrize(("language", "text", "phrase"), COMMANDS)
def test_refresh_commands(language: str, text: str, phrase: str) -> None:
    found = [(m.phrase, m.language) for m in find_refresh_commands(text)]
    assert (phrase, language) in found


def test_every_language_has_cues_and_commands() -> None:
    for language in LANGUAGES:
        assert CORRECTION_CUES[language] and REFRESH_COMMANDS[language], language


@pytest.mark.parametrize(("language", "phrase", "example"), [
    (language, phrase, example) for language, items in EXCLUSIONS.items()
    for phrase, example, _ in items])
def test_excluded_phrases_do_not_match(language: str, phrase: str, example: str) -> None:
    assert find_corrections(example) == ()
    assert find_refresh_commands(example) == ()


@pytest.mark.parametrize("text", [
    "Don't search again, the answer is fine.",
    "No need to search again.",
    "不要重新检索，直接回答。",
    "再検索しないでください。",
    "다시 검색하지 마세요.",
])
def test_negated_commands(text: str) -> None:
    assert find_refresh_commands(text) == ()


def test_interjection_no_does_not_negate_a_correction() -> None:
    assert find_corrections("No, we moved to Azure.")[0].phrase == "we moved to"


def test_quoted_and_code_text_is_not_read() -> None:
    assert find_corrections('The linter prints "that\'s wrong" on line 3') == ()
    assert find_corrections("Run `echo that's wrong` and see") == ()
    assert find_corrections("```\n# we moved to v2\n```\nWhat does this do?") == ()
    assert find_corrections("他说「那是错的」是什么意思？") == ()
    assert masked('a "b" c') == "a     c"


def test_cjk_matches_inside_words_and_latin_needs_boundaries() -> None:
    assert find_corrections("我们已经迁移到了新集群")  # no spaces in Chinese
    assert find_corrections("Whatsthat's wrongness") == ()


def test_cjk_phrases_are_listed_only_for_cjk_languages() -> None:
    for language in CJK_LANGUAGES:
        assert all(" " not in p or language == "ko" for p in CORRECTION_CUES[language])


def test_search_is_bounded() -> None:
    long = "fine. " * 5000 + "That's wrong."
    assert find_corrections(long) == ()  # past MAX_SCANNED_CHARS
    assert len(find_corrections("That's wrong. " * 100)) == 8  # the default limit
