"""The frame the docs' line charts share: a panel's title and border,
horizontal grid lines with their labels, and the x axis's ticks and name."""


def frame(title, x0, y0, w, h, yticks, sy, ylabel, xticks, sx, xname, grid=lambda v: "#eee"):
    """SVG elements for one panel. `yticks` are values placed by `sy` and
    written by `ylabel`; `xticks` are values placed by `sx`; `grid(v)`
    colours the grid line at `v`."""
    out = [f'<text x="{x0 + w / 2}" y="{y0 - 10}" text-anchor="middle" font-size="13">{title}</text>',
           f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#999"/>']
    for v in yticks:
        y = sy(v)
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + w}" y2="{y:.1f}" stroke="{grid(v)}"/>')
        out.append(f'<text x="{x0 - 5}" y="{y + 4:.1f}" text-anchor="end" font-size="10">{ylabel(v)}</text>')
    for x in xticks:
        out.append(f'<text x="{sx(x):.1f}" y="{y0 + h + 14}" text-anchor="middle" font-size="10">{x}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 30}" text-anchor="middle" font-size="11">{xname}</text>')
    return out
