"""format=flowed text (RFC 3676), as Thunderbird and Apple Mail send it: a line ending in a space
is continued by the next one. Read as the writer wrote it, a rule's paragraph is one line again,
not the 72-column pieces the client cut it into for transport."""

from __future__ import annotations

SIGNATURE = "-- "


def unflow(text: str, delsp: bool = False) -> str:
    """TEXT with its soft line breaks joined. Quoted lines join only with lines of the same
    quote depth and come back as "> text"; the signature separator "-- " is never a soft break.
    DELSP (the `delsp=yes` parameter): the space before a soft break was added by the client."""
    out: list[str] = []
    para: list[str] | None = None
    para_depth = 0

    def flush() -> None:
        nonlocal para
        if para is not None:
            out.append((">" * para_depth + " " if para_depth else "") + "".join(para))
            para = None

    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):  # space-stuffing (or the space after the quote marks)
            content = content[1:]
        if content == SIGNATURE.rstrip() + " " and depth == 0:
            flush()
            out.append(SIGNATURE)
            continue
        soft = content.endswith(" ")
        if soft and delsp:
            content = content[:-1]
        if para is not None and depth != para_depth:
            flush()
        if para is None:
            para, para_depth = [], depth
        para.append(content)
        if not soft:
            flush()
    flush()
    return "\n".join(out)
