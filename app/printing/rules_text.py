"""The rules of each preset in the project's own words, as printed on the rules sheet.

Written from shared/spec/rules.md (and, for go-fish, the stock rules the project chose). Plain data:
the only markup is <b>, written here by hand; no deck string is ever put into it.
"""
from __future__ import annotations

# preset: (title, one-line summary, [(heading, [rule, ...]), ...])
RULES: dict[str, tuple[str, str, list[tuple[str, list[str]]]]] = {
    "standard": (
        "Authors with an ordinary deck",
        "3 to 6 players · 52 cards, no jokers · 13 sets · no stock, no drawing",
        [
            ("The cards", [
                "A set (a book) is the four cards of one rank: four aces, four twos, and so on, "
                "13 sets in all. Suits and the order of ranks play no part.",
            ]),
            ("Dealing", [
                "Shuffle and deal <b>all</b> the cards, one at a time, clockwise, starting with the player "
                "on the dealer's left. Some hands may have one card more than others; the dealer is among "
                "the shorter hands.",
                "Whoever holds a complete set, even straight from the deal, lays it face up in front of them "
                "at once. Cards on the table are out of play: nobody can ask for them.",
            ]),
            ("A turn", [
                "The player on the dealer's left asks first.",
                "<b>Ask</b> another player for a rank you already hold at least one card of: "
                "\u201cOlga, give me your jacks.\u201d The player asked must hand over <b>every</b> card of "
                "that rank.",
                "<b>Got at least one card?</b> Ask again, the same player or another.",
                "<b>Got nothing?</b> The turn passes to the player on <b>your</b> left (not to the player "
                "you asked). There is no stock: nobody ever draws a card.",
                "You may only ask for a rank you hold, even right after a good ask.",
            ]),
            ("Running out", [
                "A player with no cards left is out for the rest of the hand: they get no new cards, "
                "nobody can ask them, and their turns are skipped. The hand goes on until all 13 sets are "
                "on the table; the first empty hand does not end it.",
            ]),
            ("Winning", [
                "Whoever laid down the most sets wins; players tied for the most share the win.",
                "For a series, agree on the number of deals first; each set scores one point.",
            ]),
            ("Example", [
                "Anna holds 9\u2660 9\u2665, Boris holds 9\u2666 and Vera 9\u2663. Anna asks Boris for nines "
                "and gets 9\u2666, so she asks again: Vera gives her 9\u2663. Anna lays the four nines down "
                "and keeps asking. Had Boris held no nine, the turn would have passed to Anna's left.",
            ]),
        ],
    ),
    "classic": (
        "Authors, as played in 1861",
        "2 to 6 players (3 to 5 is best) · 44 cards: 11 authors, 4 works each · 11 sets",
        [
            ("The cards", [
                "Each card shows an author and one of the author's works. A set is the four works of one "
                "author. Any themed deck (painters, scientists, composers) plays the same way; with an "
                "ordinary deck each rank is an \u201cauthor\u201d and there are 13 sets.",
            ]),
            ("Dealing", [
                "Deal all the cards, one at a time, clockwise, as evenly as they go; when they do not come "
                "out even, the dealer keeps a short hand. Sets dealt complete are laid down at once and score.",
            ]),
            ("A turn", [
                "The player on the dealer's left starts.",
                "<b>Ask</b> one opponent for one <b>particular card</b>, naming the author and the work: "
                "\u201cLaura, have you Dickens: A Tale of Two Cities?\u201d You must hold at least one "
                "card of that author, and you may not ask for a card you hold yourself.",
                "<b>Yes:</b> the card is handed over face up and you ask again \u2013 anyone, for any card "
                "you may ask for.",
                "<b>No:</b> your turn ends and play passes clockwise, to your left.",
                "Complete a set and you lay its four cards down; if a good ask completed it, you go on asking.",
            ]),
            ("Running out", [
                "A player whose hand is empty is out of this hand. The others play on until all 11 sets are "
                "on the table.",
            ]),
            ("Scoring", [
                "One point per set: 11 to share in each hand. Most sets wins the hand; a tie is shared, or "
                "settled by a tie-break hand if you agreed to that.",
                "A match is one hand, a fixed number of hands, or first to an agreed total (20 or 25 sets). "
                "The deal moves one place clockwise each hand.",
            ]),
            ("Variants (agree before the deal)", [
                "<b>Ask by author:</b> ask for an author only; the player asked hands over all of that "
                "author's cards.",
                "<b>With a stock:</b> deal only part of the deck and play the Go Fish rules for the stock "
                "(see the Go Fish sheet).",
                "<b>Name the work:</b> whoever receives a card names its work correctly for a bonus point.",
                "<b>Double deck:</b> two decks together for 7 to 11 players, 22 sets.",
            ]),
        ],
    ),
    "literature": (
        "Literature (Canadian Fish)",
        "6 or 8 players in two teams · 48 cards, no eights · 8 half-suits of 6 cards",
        [
            ("Teams and cards", [
                "Two teams sit alternately around the table. Take out the four eights. Each suit splits into "
                "two half-suits: low (2 3 4 5 6 7) and high (9 10 J Q K A). The eight half-suits are "
                "the sets.",
            ]),
            ("Dealing", [
                "Deal all the cards, one at a time, clockwise, from the dealer's left: 8 each for six "
                "players, 6 each for eight. The dealer usually asks first.",
            ]),
            ("A turn", [
                "<b>Ask</b> any <b>opponent</b> for one particular card. You must hold another card of the "
                "same half-suit, you may not ask for a card you hold, the player you ask must still have "
                "cards, and you never ask a teammate.",
                "Example: Anna's only diamond is J\u2666. She may ask for 9\u2666 10\u2666 Q\u2666 K\u2666 "
                "or A\u2666 \u2013 never for J\u2666 nor any low diamond.",
                "<b>Yes:</b> the card is handed over face up and you ask again, any opponent.",
                "<b>No:</b> the turn passes to <b>the player you asked</b>.",
            ]),
            ("Claims", [
                "Hold a whole half-suit and you may lay it down for your team.",
                "When a half-suit is spread over your team, claim it on your turn: say \u201cclaim\u201d and "
                "name who holds which cards (\u201cLow spades: I have 2 and 4, Mary has 3, Joseph has 5 6 "
                "7\u201d). You need not hold any of it yourself.",
                "All correct: your team wins the set. An opponent holds any of its cards: the <b>other</b> "
                "team wins it. Your team holds it all but you named the wrong holders: the set is "
                "cancelled and nobody scores it.",
            ]),
            ("What may be said", [
                "Anyone may ask what the last question and answer were, and how many cards a player holds. "
                "Nothing else about earlier asks may be discussed, and nobody takes notes.",
            ]),
            ("Running out", [
                "A player with no cards is out \u2013 unless their own claim emptied their hand: then they "
                "pass the turn to a teammate who still has cards.",
                "When a whole team has no cards, the other team must claim every remaining set. If it is "
                "the turn of a player who still has cards, that player makes all the claims; if it is the "
                "empty team's turn, that player picks an opponent with cards to make them.",
            ]),
            ("Winning", [
                "When every set is claimed, the team with more sets wins; 4\u20134 is a draw. With the "
                "54-card deck (the eights and two jokers as a ninth set) there can be no draw.",
            ]),
        ],
    ),
    "go-fish": (
        "Go Fish",
        "2 to 6 players · 52 cards, no jokers · 13 sets · with a stock",
        [
            ("The cards", [
                "A set is the four cards of one rank: 13 sets in all.",
            ]),
            ("Dealing", [
                "Deal one card at a time, clockwise: <b>7 cards each</b> with 2 or 3 players, <b>5 each</b> "
                "with 4 to 6 players. Put the rest face down in the middle: that is the <b>stock</b>.",
                "Whoever holds a complete set lays it face up in front of them at once.",
            ]),
            ("A turn", [
                "The player on the dealer's left asks first.",
                "<b>Ask</b> another player for a rank you already hold at least one card of: \u201cSam, do "
                "you have any sevens?\u201d The player asked hands over every card of that rank.",
                "<b>Got at least one card?</b> Ask again, anyone.",
                "<b>Got nothing?</b> \u201cGo fish!\u201d Draw the top card of the stock. If it is the rank "
                "you asked for, show it and ask again. Otherwise your turn ends and play passes to your left. "
                "When the stock is empty there is nothing to draw: the turn simply passes to your left.",
            ]),
            ("Running out", [
                "If your hand is empty when your turn comes, draw one card from the stock and play your turn "
                "with it. Once the stock is empty, a player with no cards is out for the rest of the hand.",
            ]),
            ("Winning", [
                "Play until all 13 sets are on the table. Whoever laid down the most sets wins; players "
                "tied for the most share the win.",
            ]),
        ],
    ),
}
PRESETS = tuple(RULES)
