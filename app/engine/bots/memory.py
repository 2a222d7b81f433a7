"""`memory`: follows the public record as an attentive child would. The fixed yardstick of issue #6.

The rule, exactly: ask the opponent publicly known to hold the most cards of a set it holds (asking by
card: for a card known to be there); otherwise a uniformly random ask among the opponents not known to
lack that set or card. "Known" is the public record only: cards seen handed over, asks (an asker holds
the set), failed asks and sets handed over in full (the target lacks them). No deduction beyond that.

Literature: it claims a set when it knows the whole set is in its team (its own cards plus cards seen
going to teammates and not since leaving), and passes the turn to a random teammate with cards. So that
a game always ends, when it has no ask that could succeed, or the table has gone a long while without
a set going down, it claims the set its team most visibly holds, guessing the unknown holders.
"""
from __future__ import annotations

from ..moves import Ask, Move, PassTurn
from ..views import PlayerView
from .common import RememberingBot, any_legal, claim_of

RECALL = 0.7
STALL_ASKS = 120  # asks without a set going down before it claims on a guess


class MemoryBot(RememberingBot):
    name = "memory"
    recall = RECALL

    def decide(self, view: PlayerView) -> Move:
        know = self.know
        if view.claimable:
            claim = self._sure_claim(view)
            if claim is not None:
                return claim
        if view.asks:
            ask, useful = self._ask(view)
            if view.claimable and (not useful or know.quiet > STALL_ASKS):
                return self._guess_claim(view)
            return ask
        if view.pass_targets:
            return PassTurn(view.seat, self.rng.choice(view.pass_targets))
        if view.claimable:
            return self._guess_claim(view)
        return any_legal(view)

    # ------------------------------------------------------------------------------------------
    def _ask(self, view: PlayerView) -> tuple[Move, bool]:
        """The rule's ask, and whether it may succeed (an ask to someone not known to lack it)."""
        know, rng, asks = self.know, self.rng, view.asks
        assert asks is not None  # called when the seat may ask
        targets = [know.seat[t] for t in asks.targets]
        items = [know.set_index[i] if not know.by_card else know.card_index[i] for i in asks.items]
        sets = items if not know.by_card else sorted({know.card_set[c] for c in items})
        best, best_pairs = 0, []
        for s in sets:
            for t in targets:
                if know.by_card:
                    known = [c for c in know.known_cards(t, s) if c in items]
                    if not known:
                        continue
                    count = know.known_count(t, s)
                else:
                    count = know.known_count(t, s)
                if count > best:
                    best, best_pairs = count, [(s, t)]
                elif count == best and count:
                    best_pairs.append((s, t))
        if best_pairs:
            s, t = rng.choice(best_pairs)
            if know.by_card:
                card = rng.choice([c for c in know.known_cards(t, s) if c in items])
                return self._make(view, card, t), True
            return self._make(view, s, t), True
        open_asks = [(i, t) for i in items for t in targets
                     if not (know.lacks_card(t, i) if know.by_card else know.lacks_set(t, i))]
        if open_asks:
            i, t = rng.choice(open_asks)
            return self._make(view, i, t), True
        return asks[rng.randrange(len(asks))], False

    def _make(self, view: PlayerView, item: int, target: int) -> Move:
        know = self.know
        if know.by_card:
            return Ask(view.seat, know.players[target], card=know.card_ids[item])
        return Ask(view.seat, know.players[target], set=know.set_ids[item])

    # -- Literature ---------------------------------------------------------------------------------
    def _team(self, view: PlayerView) -> list[int]:
        return [self.know.seat[name] for name in view.own_team()]

    def _sure_claim(self, view: PlayerView) -> Move | None:
        know, team = self.know, set(self._team(view))
        for set_id in view.claimable:
            s = know.set_index[set_id]
            if all(know.loc[c] in team for c in know.set_cards[s]):
                return claim_of(view, set_id, {know.card_ids[c]: know.players[know.loc[c]]
                                               for c in know.set_cards[s]})
        return None

    def _guess_claim(self, view: PlayerView) -> Move:
        know, rng = self.know, self.rng
        team = self._team(view)
        mates = [p for p in team if p != know.me]

        def seen(set_id: str) -> int:
            return sum(know.loc[c] in team for c in know.set_cards[know.set_index[set_id]])

        top = max(map(seen, view.claimable))
        set_id = rng.choice([sid for sid in view.claimable if seen(sid) == top])
        holder_of = {}
        for c in know.set_cards[know.set_index[set_id]]:
            if know.loc[c] in team:
                p = know.loc[c]
            else:
                open_mates = [m for m in mates if know.counts[m] and not know.lacks_card(m, c)]
                p = rng.choice(open_mates or mates or [know.me])
            holder_of[know.card_ids[c]] = know.players[p]
        return claim_of(view, set_id, holder_of)
