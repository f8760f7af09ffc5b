"""Every word list of the drift layer, in one place.

* ``CORRECTION_CUES`` — phrases with which a user corrects something the
  assistant assumed ("that's wrong", "we moved to …"): evidence of stale
  context (the document's constraint 1).
* ``REFRESH_COMMANDS`` — phrases with which a user tells the assistant to look
  things up again: an explicit command that bypasses classification.
* ``NEGATIONS`` — words that cancel a phrase when they come just before it
  ("don't search again"), or, for Japanese and Korean, just after it.
* ``EXCLUSIONS`` — phrases deliberately *left out* with the reason, each with
  an example sentence; the tests assert that none of the examples matches.

Sources: the phrases were written for this project by its engineers from
ordinary usage in each language, each checked against its dictionary sense
(Wiktionary entries for the idioms; the Japanese and Korean verb endings
against their standard conjugation tables). Nothing is copied from another
product's list. Topic-change markers ("new topic", "let's switch to …") are
NOT here: the drift layer takes them from the library's own topic_continuity
evaluation (see ``turnsignal.drift.rules``).

Matching (``turnsignal.drift.cues``): English, Spanish, German and French
phrases match whole words after Unicode NFKC normalisation and case folding
(curly apostrophes count as ``'``; a comma may stand between words); Chinese,
Japanese and Korean phrases match as substrings, since those languages do not
separate words with spaces (Korean attaches particles and endings to the stem,
so its phrases are stems). Text inside code or double quotes is never read.
"""

from __future__ import annotations

from typing import Dict, Tuple

__all__ = [
    "CJK_LANGUAGES",
    "CORRECTION_CUES",
    "EXCLUSIONS",
    "LANGUAGES",
    "NEGATIONS",
    "NEGATION_SUFFIXES",
    "REFRESH_COMMANDS",
]

LANGUAGES = ("en", "zh", "ja", "ko", "es", "de", "fr")
CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})

CORRECTION_CUES: Dict[str, Tuple[str, ...]] = {
    "en": (
        "i already told you", "i told you already", "i already said", "i've already said",
        "i already mentioned", "like i said before",
        "that's wrong", "that is wrong", "that's not right", "that is not right",
        "that's incorrect", "that is incorrect", "that's not correct", "that's not true",
        "you're wrong", "you are wrong", "that's outdated", "that's out of date",
        "no longer the case", "that's no longer true", "that's no longer valid",
        "is no longer true", "is no longer valid", "is no longer accurate",
        "we moved to", "we've moved to", "we have moved to", "we switched to",
        "we've switched to", "we migrated to", "we've migrated to", "we have migrated to",
        "we replaced it with", "we upgraded to", "we changed to", "it changed to",
        "we no longer use", "we no longer have", "we no longer run", "we're no longer on",
        "we are no longer on", "we don't use", "we do not use", "we stopped using",
        "we're not using", "we are not using", "not anymore", "not any more",
        "actually it's", "actually it is", "actually, we", "actually we use",
        "it's actually", "it is actually",
    ),
    "zh": (
        "我已经告诉过你", "我已经说过", "我之前说过", "我刚才说过", "跟你说过了",
        "那是错的", "这是错的", "你说错了", "不对，", "不是这样的", "不正确",
        "已经过时", "已经不用", "不再使用", "已经换成", "我们换成了", "我们改用",
        "迁移到了", "已经迁移到", "已经改成", "其实是", "实际上是",
    ),
    "ja": (
        "もう言いました", "前にも言いました", "さっき言いました", "既に伝えました",
        "すでに伝えました", "それは違います", "違いますよ", "間違っています",
        "正しくありません", "古い情報", "もう使っていません", "使わなくなりました",
        "に移行しました", "に切り替えました", "に変わりました",
        "実際には",
    ),
    "ko": (
        "이미 말했", "이미 말씀드렸", "아까 말했", "전에 말했", "그건 틀렸", "틀렸어요",
        "틀렸습니다", "사실이 아닙니다", "더 이상 사용하지 않", "더 이상 안 써",
        "로 옮겼", "으로 옮겼", "로 바꿨", "으로 바꿨", "로 이전했", "으로 이전했",
        "로 변경했", "으로 변경했",
    ),
    "es": (
        "ya te dije", "ya te lo dije", "ya lo dije", "eso está mal", "eso no es correcto",
        "eso es incorrecto", "no es cierto", "estás equivocado", "está equivocado",
        "ya no usamos", "ya no utilizamos", "dejamos de usar", "nos cambiamos a",
        "migramos a", "nos pasamos a", "en realidad es", "en realidad usamos",
        "de hecho es",
    ),
    "de": (
        "ich habe dir schon gesagt", "ich habe ihnen schon gesagt", "hab ich doch schon gesagt",
        "habe ich schon gesagt", "das ist falsch", "das stimmt nicht", "das ist nicht richtig",
        "das ist veraltet", "wir nutzen nicht mehr", "wir verwenden nicht mehr",
        "wir benutzen nicht mehr", "umgestiegen", "inzwischen nutzen wir",
        "mittlerweile nutzen wir", "wir nutzen inzwischen", "wir nutzen mittlerweile",
        "eigentlich ist es", "tatsächlich ist es",
    ),
    "fr": (
        "je vous l'ai déjà dit", "je te l'ai déjà dit", "je vous ai déjà dit",
        "je t'ai déjà dit", "c'est faux", "ce n'est pas correct", "c'est incorrect",
        "ce n'est pas vrai", "vous vous trompez", "tu te trompes", "c'est obsolète",
        "nous n'utilisons plus", "on n'utilise plus", "nous sommes passés à",
        "on est passé à", "on est passés à", "nous avons migré vers", "on a migré vers",
        "en fait c'est", "en réalité c'est",
    ),
}

REFRESH_COMMANDS: Dict[str, Tuple[str, ...]] = {
    "en": (
        "refresh your context", "refresh the context", "refresh your data",
        "refresh the data", "refresh your information", "re-check the latest",
        "recheck the latest", "fetch the latest", "pull the latest data",
        "get the latest data", "look it up again", "look that up again", "search again",
        "re-run the search", "rerun the search", "re-verify", "reverify",
        "check the sources again", "re-retrieve",
    ),
    "zh": (
        "重新检索", "重新查询", "重新查一下", "再查一下", "刷新上下文", "刷新一下数据",
        "重新获取最新", "获取最新数据",
    ),
    "ja": (
        "もう一度調べて", "再検索して", "最新の情報を取得", "最新の情報で確認",
        "コンテキストを更新", "情報を更新して",
    ),
    "ko": (
        "다시 검색해", "다시 조회해", "다시 확인해 주", "최신 정보로 다시", "컨텍스트를 새로",
        "정보를 새로 고쳐",
    ),
    "es": (
        "vuelve a buscar", "busca de nuevo", "busca otra vez", "vuelve a consultar",
        "consulta de nuevo", "actualiza el contexto", "actualiza los datos",
        "vuelve a verificar",
    ),
    "de": (
        "such noch einmal", "such nochmal", "suche erneut", "schau noch einmal nach",
        "schau nochmal nach", "aktualisiere den kontext", "aktualisiere die daten",
        "prüf das noch einmal", "prüfe das erneut",
    ),
    "fr": (
        "recherche à nouveau", "cherche à nouveau", "vérifie à nouveau", "revérifie",
        "actualise le contexte", "mets à jour le contexte", "actualise les données",
        "mets à jour les données",
    ),
}

# Words that cancel a phrase when they stand among the three words before it
# (space-separated languages) or end within four characters before it (Chinese).
NEGATIONS: Dict[str, Tuple[str, ...]] = {
    "en": ("not", "don't", "dont", "never", "no", "without", "didn't", "doesn't", "needn't"),
    "es": ("no", "nunca", "sin"),
    "de": ("nicht", "kein", "keine", "nie", "niemals", "ohne"),
    "fr": ("ne", "n'", "pas", "jamais", "sans"),
    "zh": ("不要", "别", "不用", "无需", "不必", "没必要"),
    "ja": (),
    "ko": (),
}

# Japanese and Korean put the negation after the verb: these endings within
# six characters after a phrase cancel it ("再検索しないで", "다시 검색하지 마").
NEGATION_SUFFIXES: Dict[str, Tuple[str, ...]] = {
    "ja": ("ないで", "なくて", "なくていい", "不要"),
    "ko": ("지 마", "지 말", "지마", "필요 없"),
}

# Left out on purpose: (phrase, example sentence where it would be wrong, reason).
EXCLUSIONS: Dict[str, Tuple[Tuple[str, str, str], ...]] = {
    "en": (
        ("no longer", "Thanks, the error no longer shows up after the fix.",
         "alone it mostly reports progress, not a correction; kept as 'we no longer use', "
         "'is no longer true', 'no longer the case' and similar"),
        ("actually", "Actually, can you also add a unit test for it?",
         "a common opener for a follow-up; kept only as 'actually it's', 'actually we use'"),
        ("as i said", "As I said in the ticket, the build runs nightly.",
         "refers back to the user's own words; it is a continuation cue"),
        ("refresh", "How do I refresh the OAuth token when it expires?",
         "usually a question about the user's own system; only directed commands "
         "('refresh your context') count"),
        ("wrong", "What's wrong with this loop?",
         "asks for debugging help; only 'that's wrong' and its forms count"),
    ),
    "zh": (
        ("错了", "程序出错了，怎么办？", "matches 出错了 'an error occurred'"),
        ("刷新", "怎么刷新页面的缓存？", "a question about refreshing a web page"),
        ("其实", "其实我还有一个问题想问。", "a common opener ('actually, I also …')"),
    ),
    "ja": (
        ("実は", "実はもう一つ質問があります。", "a common opener ('actually, one more question')"),
        ("違う", "違う方法も教えてください。", "'a different method', not a correction"),
        ("更新", "パッケージを更新する方法は？", "a question about updating packages"),
    ),
    "ko": (
        ("잘못됐", "뭐가 잘못됐는지 모르겠어요.", "'what went wrong' — a debugging question"),
        ("사실은", "사실은 질문이 하나 더 있어요.", "a common opener"),
        ("새로 고침", "페이지 새로 고침은 어떻게 해요?", "a question about reloading a page"),
    ),
    "es": (
        ("ya no", "Gracias, ya no sale el error.", "alone it reports progress"),
        ("en realidad", "En realidad, ¿puedes añadir una prueba?", "a common opener"),
        ("actualiza", "¿Cómo actualizo el paquete?", "a question about updating a package"),
    ),
    "de": (
        ("nicht mehr", "Danke, der Fehler tritt nicht mehr auf.", "alone it reports progress"),
        ("wie gesagt", "Wie gesagt, der Build läuft nachts.", "refers to the user's own words"),
        ("eigentlich", "Eigentlich wollte ich noch fragen, wie das geht.", "a common opener"),
    ),
    "fr": (
        ("plus", "Merci, l'erreur n'apparaît plus.", "alone it reports progress"),
        ("en fait", "En fait, peux-tu aussi ajouter un test ?", "a common opener"),
        ("actualiser", "Comment actualiser la page ?", "a question about reloading a page"),
    ),
}
