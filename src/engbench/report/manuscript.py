"""paper.md → paper.pdf and paper.html (and supplement.md → supplement.pdf and .html): the
manuscript step of `engbench report`.

  paper.md --pandoc (Markdown → Typst, with paper/template.typst)--> Typst source (kept in memory)
           --Typst--> paper.pdf and paper.html

pandoc 3.9 comes with the PyPI package pypandoc-binary and Typst with the PyPI package typst (typst-py);
nothing is downloaded at build time. Typst numbers the sections, figures and tables, turns every
cross-reference ([@tab-…], [@fig-…], [@sec-…] in paper.md) into "Table N" / "Figure N" /
"Section N" with a link, and formats the reference list from build/references.bib ([@key]), in both
outputs, so the PDF and the HTML say the same. The HTML is self-contained (figures inline as data
URIs, CSS in the page).

Same paper.md, same bytes: Typst sees only its own fonts and DejaVu Sans from Debian's
fonts-dejavu-core (FONT_FILES, the figures' font; the machine's other fonts are ignored) and the
timestamp 0. `engbench verify` still does not rely on that across machines: it compares the PDF
by its page count and the text pdftotext extracts, and the HTML by its text and images
(same_pdf, same_html).

Markdown as pandoc reads it (FORMAT): no TeX math ($ is a dollar), no raw TeX or HTML, no sub- or
superscript (~ and ^ are themselves). A label pandoc could not attach (a table caption with a
"{_" before its {#tab-…}) is refused, naming it, instead of leaving a cross-reference unresolved;
so is a heading pandoc read as text (no blank line before it)."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

from .. import paths

TEMPLATE = "template.typst"
# pandoc's Markdown without what would read engbench's text as markup: no implicit header references
# ("[device]", a counter's name in brackets, would link to the Device section), no TeX or raw HTML
FORMAT = ("markdown-auto_identifiers-implicit_header_references-tex_math_dollars-raw_tex-raw_html-raw_attribute"
          "-subscript-superscript")
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")   # Debian's fonts-dejavu-core
LABEL = re.compile(r"\{#((?:tab|fig|sec)-[A-Za-z0-9_-]+)\}")
SETUP_HINT = "run `bash scripts/setup.sh`"


class ManuscriptError(RuntimeError):
    """paper.md cannot be rendered (a tool or font missing, a label lost, Typst refused it)."""


def template_path(paper_dir=None) -> Path:
    """<paper_dir>/template.typst when there is one, else the repository's paper/template.typst."""
    if paper_dir is not None and (Path(paper_dir) / TEMPLATE).is_file():
        return Path(paper_dir) / TEMPLATE
    return paths.REPO / "paper" / TEMPLATE


def to_typst(markdown: str, template: Path) -> str:
    """pandoc: paper.md (front matter and body) → one Typst document. The body's `##` headings
    become Typst's level 1 (the title is the front matter's)."""
    try:
        import pypandoc
    except ImportError as e:
        raise ManuscriptError(f"pypandoc-binary is not installed ({e}): {SETUP_HINT}") from e
    out = subprocess.run([pypandoc.get_pandoc_path(), "--from", FORMAT, "--to", "typst", "--standalone",
                          "--template", str(template), "--wrap", "none", "--shift-heading-level-by=-1"],
                         input=markdown, capture_output=True, text=True)
    if out.returncode != 0:
        raise ManuscriptError(f"pandoc could not read paper.md: {out.stderr.strip()}")
    typ = out.stdout
    lost = [x for x in dict.fromkeys(LABEL.findall(markdown)) if f"<{x}>" not in typ]
    if lost:
        raise ManuscriptError(f"labels pandoc did not attach (a caption with '{{_' or a label not at the end "
                              f"of a caption or heading?): {', '.join(lost[:10])}")
    prose = re.sub(r"(?ms)^```.*?^```", "", markdown.split("\n---\n", 1)[-1])
    heads = re.findall(r"(?m)^#{2,6} .*", prose)
    typed = re.findall(r"(?m)^=+ ", re.sub(r"(?ms)^```.*?^```", "", typ))
    if len(heads) != len(typed):
        raise ManuscriptError(f"{len(heads)} headings in paper.md, {len(typed)} in the typeset paper: "
                              "a heading needs a blank line before it")
    return typ


def _fonts(tmp: Path):
    import typst

    missing = [f for f in FONT_FILES if not (FONT_DIR / f).is_file()]
    if missing:
        raise ManuscriptError(f"{', '.join(str(FONT_DIR / f) for f in missing)} missing (Debian's "
                              f"fonts-dejavu-core, the figures' font): {SETUP_HINT}")
    for f in FONT_FILES:
        (tmp / f).symlink_to(FONT_DIR / f)
    return typst.Fonts(include_system_fonts=False, include_embedded_fonts=True, font_paths=[str(tmp)])


def compile_typst(typ: str, root: Path) -> tuple[bytes, bytes, list[str]]:
    """Typst: (PDF bytes, HTML bytes, warnings). `root` holds the files the source names
    (figures/, references.bib)."""
    try:
        import typst
    except ImportError as e:
        raise ManuscriptError(f"typst is not installed ({e}): {SETUP_HINT}") from e
    with tempfile.TemporaryDirectory(prefix="engbench-fonts-") as tmp:
        compiler = typst.Compiler(root=str(root), font_paths=_fonts(Path(tmp)))
        try:
            pdf, w1 = compiler.compile_with_warnings(typ.encode(), format="pdf", timestamp=0,
                                                     sys_inputs={"target": "pdf"})
            html, w2 = compiler.compile_with_warnings(typ.encode(), format="html", timestamp=0,
                                                      sys_inputs={"target": "html"})
        except typst.TypstError as e:
            raise ManuscriptError(f"Typst could not compile paper.md: {e.message} {' '.join(e.hints)}") from e
    return pdf, html, sorted({w.message for w in list(w1) + list(w2)})


def render(build_dir: Path, paper_dir=None, stem: str = "paper") -> tuple[Path, Path]:
    """<build_dir>/<stem>.md → <build_dir>/<stem>.pdf and <stem>.html (stem "paper" or
    "supplement": the two documents share figures/ and references.bib); returns their paths."""
    build_dir = Path(build_dir)
    typ = to_typst((build_dir / f"{stem}.md").read_text(), template_path(paper_dir))
    pdf, html, _ = compile_typst(typ, build_dir)
    (build_dir / f"{stem}.pdf").write_bytes(pdf)
    (build_dir / f"{stem}.html").write_bytes(html)
    return build_dir / f"{stem}.pdf", build_dir / f"{stem}.html"


# --- comparing two renderings (engbench verify) -------------------------------------------------

def pdf_pages(pdf: Path) -> int:
    """The page count pdfinfo reads."""
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))


def pdf_text(pdf: Path) -> str:
    """pdftotext's text (layout kept), form feeds between pages."""
    return subprocess.run(["pdftotext", "-layout", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                          check=True).stdout.decode()


def same_pdf(a: Path, b: Path) -> str | None:
    """None when the two PDFs have the same bytes, or the same page count and text (the fonts'
    rasterization aside, the same document); else what differs."""
    if a.read_bytes() == b.read_bytes():
        return None
    try:
        pa, pb = pdf_pages(a), pdf_pages(b)
        if pa != pb:
            return f"{pa} pages, recomputed {pb}"
        ta, tb = pdf_text(a).split("\f"), pdf_text(b).split("\f")
    except (OSError, subprocess.CalledProcessError, AttributeError) as e:
        return f"differs from the recomputed file, and its text cannot be compared ({e}; poppler-utils: {SETUP_HINT})"
    for n, (x, y) in enumerate(zip(ta, tb), start=1):
        if x != y:
            line = next((i for i, (u, v) in enumerate(zip(x.splitlines(), y.splitlines())) if u != v), None)
            return f"the text of page {n} differs" + (f" (line {line + 1})" if line is not None else "")
    return None


def html_content(html: str) -> tuple[str, list[str]]:
    """(the page's text without markup, its images' sources in order)."""
    images = re.findall(r'<img[^>]*\ssrc="([^"]*)"', html)
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<style[^>]*>.*?</style>", " ", html, flags=re.S))
    return " ".join(text.split()), images


def same_html(a: Path, b: Path) -> str | None:
    """None when the two pages have the same bytes, or the same text and images; else what differs."""
    ha, hb = a.read_text(), b.read_text()
    if ha == hb:
        return None
    (ta, ia), (tb, ib) = html_content(ha), html_content(hb)
    if ia != ib:
        return f"{len(ia)} images, recomputed {len(ib)}" if len(ia) != len(ib) else \
            f"image {next(n for n, (x, y) in enumerate(zip(ia, ib), 1) if x != y)} differs"
    if ta != tb:
        i = next((i for i, (x, y) in enumerate(zip(ta, tb)) if x != y), min(len(ta), len(tb)))
        return f"its text differs at …{ta[max(0, i - 40):i + 40]}… (recomputed …{tb[max(0, i - 40):i + 40]}…)"
    return None
