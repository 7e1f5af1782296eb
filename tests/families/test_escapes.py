"""Escapes: HTML character references, \\u escapes and percent-encoding decode exactly."""

from __future__ import annotations

import pytest

BUG_GBK_PERCENT = (
    "escape decoder tries UTF-8 before GB18030 and keeps the first that decodes: GBK "
    "percent-encoding %D1%A7 (学) is valid UTF-8 for U+0467 'ѧ' and is applied as that"
)
BUG_SURROGATE_ENTITY = (
    "html.unescape turns &#xD800; into U+FFFD before the surrogate check, so a lone-surrogate "
    "reference is 'repaired' to a replacement character with confidence 1.0"
)

# (input, [(kind, exact span, start)], repaired output)
CASES = [
    pytest.param("子曰&#x5B78;而時習之", [("escape", "&#x5B78;", 2)], "子曰學而時習之", id="hex-reference"),
    pytest.param("子曰&#X5B78;而時習之", [("escape", "&#X5B78;", 2)], "子曰學而時習之", id="hex-reference-upper-x"),
    pytest.param("子曰&#23416;而時習之", [("escape", "&#23416;", 2)], "子曰學而時習之", id="decimal-reference"),
    pytest.param("字作&#131072;，音未詳", [("escape", "&#131072;", 2)], "字作𠀀，音未詳", id="decimal-ext-b"),
    pytest.param("子曰\\u5b78而時習之", [("escape", "\\u5b78", 2)], "子曰學而時習之", id="backslash-u"),
    pytest.param("字作\\U00020000，音未詳", [("escape", "\\U00020000", 2)], "字作𠀀，音未詳", id="backslash-U-ext-b"),
    pytest.param(
        "字作\\ud840\\udc00，音未詳", [("escape", "\\ud840\\udc00", 2)], "字作𠀀，音未詳", id="surrogate-pair-escape"
    ),
    pytest.param("子曰%E5%AD%B8而時習之", [("escape", "%E5%AD%B8", 2)], "子曰學而時習之", id="percent-utf8"),
    pytest.param("子曰%e5%ad%b8而時習之", [("escape", "%e5%ad%b8", 2)], "子曰學而時習之", id="percent-utf8-lower"),
    pytest.param(
        "%E5%AD%A6%E8%80%8C%E6%97%B6%E4%B9%A0%E4%B9%8B",
        [("escape", "%E5%AD%A6%E8%80%8C%E6%97%B6%E4%B9%A0%E4%B9%8B", 0)],
        "学而时习之",
        id="percent-utf8-run",
    ),
    pytest.param("子曰&nbsp;學而", [("escape", "&nbsp;", 2)], "子曰\xa0學而", id="named-nbsp"),
    pytest.param(
        "&ldquo;學而&rdquo;",
        [("escape", "&ldquo;", 0), ("escape", "&rdquo;", 9)],
        "“學而”",
        id="named-quotes",
    ),
    pytest.param(
        "之&#x4E00;乎\\u4e8c%E4%B8%89&amp;",
        [("escape", "&#x4E00;", 1), ("escape", "\\u4e8c", 10), ("escape", "%E4%B8%89", 16)],
        "之一乎二三&amp;",
        id="mixed-kinds",
    ),
    # Escapes of ASCII markup characters stay: decoded, they would be live markup in a web page.
    pytest.param("按&#x3C;script&#x3E;曰", [], "按&#x3C;script&#x3E;曰", id="markup-hex-references"),
    pytest.param("按&#60;b&#62;曰", [], "按&#60;b&#62;曰", id="markup-decimal-references"),
    pytest.param("魚&amp;熊掌", [], "魚&amp;熊掌", id="named-amp"),
    pytest.param("&lt;p&gt;子曰&quot;&apos;", [], "&lt;p&gt;子曰&quot;&apos;", id="named-markup"),
    pytest.param("子曰\\u003c學\\u0026", [], "子曰\\u003c學\\u0026", id="markup-backslash-u"),
    pytest.param("&#x3C;&#x5B78;&#39;", [("escape", "&#x5B78;", 6)], "&#x3C;學&#39;", id="markup-beside-a-character"),
    # Near misses: nothing that does not name a character is claimed.
    pytest.param("增長100%以上", [], "增長100%以上", id="percent-sign"),
    pytest.param("%20之", [], "%20之", id="percent-ascii"),
    pytest.param("價格為100%E4", [], "價格為100%E4", id="single-percent-byte"),
    pytest.param("A&B公司", [], "A&B公司", id="bare-ampersand"),
    pytest.param("&c", [], "&c", id="et-cetera"),
    pytest.param("&copy;2020", [], "&copy;2020", id="entity-outside-closed-list"),
    pytest.param("子曰&#x5B78而", [], "子曰&#x5B78而", id="reference-without-semicolon"),
    pytest.param("\\u0000", [], "\\u0000", id="control-character-escape"),
    # Known problems.
    pytest.param(
        "子曰%D1%A7而时习之",
        [("escape", "%D1%A7", 2)],
        "子曰学而时习之",
        id="percent-gbk",
    ),
    pytest.param(
        "&#xD800;",
        [],
        "&#xD800;",
        id="lone-surrogate-reference",
    ),
]


@pytest.mark.parametrize(("text", "expected", "output"), CASES)
def test_escapes(repaired, observed, text, expected, output):
    result = repaired(text)
    assert observed(result) == expected
    assert result.text == output
    assert all(e.applied and e.confidence == 1.0 for e in result.edits)
