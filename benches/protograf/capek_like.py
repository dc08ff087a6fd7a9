"""A deck comparable to Capek Golems' 54 cards, drawn by protograf, for benches/versus_protograf.sh.

Capek prints 39 game cards (6 per colour in six colours, plus 3 wild characters), 12 golem
body-part cards and 3 auction-house cards, all poker size, each with a coloured frame, a name,
a symbol and a line of rules text, and a back per deck. This script draws the same number of
poker cards with the same kinds of marks (a rounded frame in the card's colour, the name, a
circle symbol, wrapped text) and one back each, into one PDF with crop marks: what
`printplay build capek-golems --only cards` writes as `cards.pdf`.

Run it from the folder to write into: cd OUT_DIR && python3 .../capek_like.py (protograf reads
the command line itself, so the script takes no arguments).
"""
from protograf import *  # noqa: F401,F403  (protograf's scripts are written this way)

colours = [
    ("Parts Machining", "#e8b923"),
    ("Organ Replacement", "#b8323a"),
    ("Steam Engine Dynamics", "#3f8f4a"),
    ("Ventilation Systems Integration", "#2f6db5"),
    ("Aetheric Sublimation", "#9b6fd0"),
    ("Brain Surgery", "#d9782d"),
]
rows = [["ID", "Name", "Colour", "Text", "Back"]]
n = 0
for name, colour in colours:
    for k in range(6):
        n += 1
        rows.append([n, f"{name} {k + 1}", colour,
                     f"Inquiry card: counts towards a set of {name}; bid it in the auction.",
                     "#3b2f2a"])
for k in range(3):
    n += 1
    rows.append([n, f"Wild character {k + 1}", "#4a4a4a",
                 "Wild: counts as any one colour of your choice when you score a set.",
                 "#3b2f2a"])
for player in (1, 2):
    for part in ("Head", "Torso", "Left arm", "Right arm", "Left leg", "Right leg"):
        n += 1
        rows.append([n, f"{part} (player {player})", "#b9c6cc",
                     "Golem body part: place it when its requirement is met.", "#b9c6cc"])
for k in range(3):
    n += 1
    rows.append([n, f"Auction House {k + 1}", "#8a6d3b",
                 "Auction slots: new cards enter on the right; prices rise to the left.",
                 "#3b2f2a"])
assert n == 54

Create(filename="capek_like.pdf", margin=0.5)
Data(data_list=rows)
Deck(cards=54, card_size="poker", grid_marks=True, rounding=0.3, stroke="#808080")
# protograf takes a shape's colour as it is written, so one shape per colour, chosen by the
# card's data (as its own examples do, with S()).
for colour in sorted({row[2] for row in rows[1:]}):
    Card("all", S(f"{{{{ Colour == '{colour}' }}}}",
                  rectangle(x=0.2, y=0.2, width=5.95, height=8.49, rounded=0.3,
                            stroke=colour, stroke_width=3, fill=None)))
    Card("all", S(f"{{{{ Colour == '{colour}' }}}}",
                  circle(cx=3.2, cy=3.5, radius=1.2, fill=colour, stroke="#000000")))
Card("all", text(text=T("{{ Name }}"), x=3.2, y=0.9, font_size=11))
Card("all", text(text=T("{{ Text }}"), x=0.6, y=5.6, width=5.2, height=2.2,
                 font_size=9, wrap=True, align="centre"))
for back in sorted({row[4] for row in rows[1:]}):
    CardBack("all", S(f"{{{{ Back == '{back}' }}}}",
                      rectangle(x=0.2, y=0.2, width=5.95, height=8.49, rounded=0.3, fill=back)))
Save()
