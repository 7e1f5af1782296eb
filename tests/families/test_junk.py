"""Junk: scraper watermarks and site furniture are removed, and only they."""

from __future__ import annotations

import pytest

BUG_LEADING_SYMBOL = (
    "junk 'stray symbol line' pattern has no end-of-line anchor: it strips a leading "
    "*, -, >, <, #, =, ~, |, _ from any line that has text after it"
)
BUG_COUNTER_WITH_TITLE = (
    "junk 'chapter counter' pattern has no end-of-line anchor: it removes 第N章 even when "
    "the chapter title follows on the same line"
)
BUG_GLUED_DOMAIN = (
    "junk DOMAIN ends in \\b, and a Han character is a word character for re: a site "
    "name glued to the following text is not detected"
)

# (input, [(kind, exact span, start)], repaired output)
CASES = [
    pytest.param(
        "子曰：學而時習之。【来源：读书之家-dushuzhijia.com】\n有朋自遠方來。",
        [("junk", "【来源：读书之家-dushuzhijia.com】", 9)],
        "子曰：學而時習之。\n有朋自遠方來。",
        id="bracketed-watermark",
    ),
    pytest.param(
        "〔转载自 sina.com.cn〕學而",
        [("junk", "〔转载自 sina.com.cn〕", 0)],
        "學而",
        id="bracketed-repost-note",
    ),
    pytest.param(
        "學而時習之（本章完 www.abc.net）",
        [("junk", "（本章完 www.abc.net）", 5)],
        "學而時習之",
        id="parenthesised-site",
    ),
    pytest.param(
        "學而時習之-dushuzhijia.com\n有朋自遠方來",
        [("junk", "-dushuzhijia.com", 5)],
        "學而時習之\n有朋自遠方來",
        id="bare-site-at-line-end",
    ),
    pytest.param("李白-libai.top", [("junk", "-libai.top", 2)], "李白", id="bare-site-top-level-domain"),
    pytest.param(
        "學而時習之 https://www.zhonghua.org/book/1.html 不亦說乎",
        [("junk", " https://www.zhonghua.org/book/1.html", 5)],
        "學而時習之 不亦說乎",
        id="url-with-path",
    ),
    pytest.param("第65章\n學而第一\n", [("junk", "第65章\n", 0)], "學而第一\n", id="chapter-counter-line"),
    pytest.param("第 12 章\n學而第一", [("junk", "第 12 章\n", 0)], "學而第一", id="chapter-counter-spaced"),
    pytest.param("子曰\n>\n學而", [("junk", ">\n", 3)], "子曰\n學而", id="stray-symbol-line"),
    pytest.param(
        "上一章 | 下一章 | 返回目录\n學而時習之",
        [("junk", "上一章 | 下一章 | 返回目录\n", 0)],
        "學而時習之",
        id="navigation-line",
    ),
    pytest.param("下一页\n有朋", [("junk", "下一页\n", 0)], "有朋", id="next-page-line"),
    pytest.param("手机阅读\n學而", [("junk", "手机阅读\n", 0)], "學而", id="mobile-reading-line"),
    pytest.param(
        "學而-dushuzhijia.com\n第3章\n有朋【来源：读书之家-dushuzhijia.com】",
        [
            ("junk", "-dushuzhijia.com", 2),
            ("junk", "第3章\n", 19),
            ("junk", "【来源：读书之家-dushuzhijia.com】", 25),
        ],
        "學而\n有朋",
        id="several-in-one-text",
    ),
    # Near misses: text that looks like furniture but is part of the book.
    pytest.param("參見第12章。", [], "參見第12章。", id="chapter-reference-in-prose"),
    pytest.param("第一章 學而", [], "第一章 學而", id="chapter-title-in-han-numerals"),
    pytest.param("乃第65回目", [], "乃第65回目", id="counter-inside-sentence"),
    pytest.param("例如 a.b 或 e.g. 与 vol. 1", [], "例如 a.b 或 e.g. 与 vol. 1", id="dotted-latin-not-a-domain"),
    pytest.param(
        "——子曰：學而時習之。",
        [],
        "——子曰：學而時習之。",
        id="leading-dash-is-punctuation",
    ),
    # Known problems.
    pytest.param(
        "學而時習之-dushuzhijia.com不亦說乎",
        [("junk", "-dushuzhijia.com", 5)],
        "學而時習之不亦說乎",
        id="site-glued-to-following-han",
    ),
    pytest.param(
        "*注：見上。",
        [],
        "*注：見上。",
        id="leading-footnote-star-kept",
    ),
    pytest.param(
        "> 子曰：學而時習之。",
        [],
        "> 子曰：學而時習之。",
        id="leading-quote-marker-kept",
    ),
    pytest.param(
        "第12章 學而時習之",
        [],
        "第12章 學而時習之",
        id="counter-with-title-kept",
    ),
]


@pytest.mark.parametrize(("text", "expected", "output"), CASES)
def test_junk(repaired, observed, text, expected, output):
    result = repaired(text)
    assert observed(result) == expected
    assert result.text == output
    assert all(e.applied and e.after == "" for e in result.edits)
