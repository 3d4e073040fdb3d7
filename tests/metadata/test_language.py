"""Language tags and detection (newsstem/metadata/language.py)."""

from __future__ import annotations

import pytest

from newsstem.metadata.language import detect_language, normalize_tag, resolve_language

TEXTS = {
    "ja": "気象庁は二十日、東京都心で桜が満開になったと発表した。平年より七日早い。",
    "zh-Hans": "中华人民共和国的首都是北京，人口超过两千万。这是一个很大的城市，历史悠久。",
    "zh-Hant": "中華民國的首都是臺北，這是一個很大的城市，歷史悠久，人口眾多，交通發達。",
    "ko": "서울시는 출퇴근 시간대의 교통 체증을 줄이기 위해 새로운 버스 전용 차로를 도입한다.",
    "ru": "В субботу в Москве открылась новая станция метро на юго-западе города.",
    "uk": "У суботу в Києві відкрилася нова станція метро, і мешканці задоволені.",
    "el": "Η κυβέρνηση ανακοίνωσε σήμερα νέα μέτρα για την ενίσχυση του τουρισμού.",
    "he": "שנת הלימודים החדשה נפתחה היום בכל רחבי הארץ ומשרד החינוך הודיע על תוכנית.",
    "ar": "افتتح اليوم معرض القاهرة الدولي للكتاب بمشاركة أكثر من ألف دار نشر من مختلف دول العالم.",
    "th": "กรุงเทพมหานครเตรียมความพร้อมรับมือกับปัญหาน้ำท่วมในช่วงฤดูฝนที่กำลังจะมาถึง",
    "en": "The minister said that the plan was not ready and that it would be changed by the end "
          "of the year, as the budget for this work is not yet in place.",
    "fr": "Les députés ont adopté le projet de loi sur le renseignement, qui sera examiné par le "
          "Sénat et le Conseil constitutionnel dans les semaines qui viennent. Le texte donne aux "
          "services des moyens nouveaux pour surveiller les communications.",
    "de": "Die Stadt München will in den nächsten drei Jahren über hundert Kilometer neue "
          "Fahrradwege bauen, und der Stadtrat hat den Plan mit großer Mehrheit beschlossen.",
    "es": "Los pueblos indígenas reclaman por derechos que permanecen incumplidos, por eso es "
          "más eficiente canalizar la protesta que reprimirla en las calles de la ciudad.",
}


@pytest.mark.parametrize(("tag", "text"), sorted(TEXTS.items()))
def test_detect_language(tag, text):
    detection = detect_language(text)
    assert detection is not None and detection.tag == tag


def test_too_little_text_says_nothing():
    assert detect_language("OK") is None
    assert detect_language("12345 !!!") is None


@pytest.mark.parametrize(
    ("raw", "tag"),
    [("en_us", "en-US"), ("EN-uk", "en-GB"), ("zh-hant-tw", "zh-Hant-TW"), ("es-419", "es-419"),
     ("fr", "fr"), ("{{lang}}", None), ("", None), ("x-default", None), ("english", None)],
)
def test_normalize_tag(raw, tag):
    assert normalize_tag(raw) == tag


def test_markup_wins_when_the_text_agrees_or_is_unsure():
    portuguese = "O governo anunciou que o plano não está pronto."
    assert resolve_language(["pt-BR"], portuguese) == ("pt-BR", "markup")
    assert resolve_language(["de"], "OK") == ("de", "markup")


def test_the_text_wins_over_wrong_markup():
    assert resolve_language(["en"], TEXTS["ja"]) == ("ja", "text")
    assert resolve_language(["en-US"], TEXTS["fr"]) == ("fr", "text")
    assert resolve_language([], TEXTS["zh-Hant"]) == ("zh-Hant", "text")


def test_the_first_agreeing_declaration_is_kept():
    assert resolve_language(["en", "zh-TW"], TEXTS["zh-Hant"]) == ("zh-TW", "markup")
