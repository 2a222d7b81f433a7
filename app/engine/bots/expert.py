"""`expert`: exact inference from the record, then the ask with the best expected gain.

Knowledge (knowledge.py) keeps the exact facts; inference.py turns them into the probability that each
opponent holds each card or set, by counting the consistent deals. The choice weighs the chance of a
hit (which keeps the turn) against what the ask gives away.
"""
from __future__ import annotations

import random

from ..moves import Ask, Move, PassTurn
from ..views import PlayerView
from .common import answer, claim_of
from .inference import Deal, Inconsistent
from .knowledge import Knowledge

RECALL = 0.9
STALL_ASKS = 60  # Literature: asks without a set going down before claiming on the best odds
W_ALL = 0.3
W_GAIN = 0.02


class ExpertBot:
    name = "expert"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.know = Knowledge()

    def observe(self, events: list[dict]) -> None:
        self.know.observe(events)

    def choose(self, view: PlayerView) -> Move:
        know = self.know
        know.update(view)
        if view.prompts:
            return answer(view, self.rng, RECALL)
        deal = self._deal()
        if view.teams:
            return self._team_move(view, deal)
        return self._ask(view, deal)

    def _deal(self) -> Deal:
        try:
            return Deal(self.know).solve(self.rng)
        except Inconsistent:
            return Deal(self.know, relax=True).solve(self.rng)

    # ------------------------------------------------------------------------------------------
    # Asking
    # ------------------------------------------------------------------------------------------
    def _candidates(self, view: PlayerView, deal: Deal) -> list[tuple[float, int, int]]:
        """(score, item, target) for every legal ask: item is a set (asking by set) or a card."""
        know = self.know
        asks = view.asks
        targets = [know.seat[t] for t in asks.targets]
        out = []
        if know.by_card:
            for cid in asks.items:
                c = know.card_index[cid]
                s = know.card_set[c]
                missing = know.set_size[s] - know.my_count[s]
                i = deal.index.get(c)
                for t in targets:
                    if know.loc[c] == t:
                        p = 1.0
                    elif i is None:
                        p = 0.0
                    else:
                        h = deal.pos.get(t)
                        p = deal.card_p[i][h] if h is not None else 0.0
                    score = p + (0.3 * p if missing == 1 else 0.0)
                    out.append((score, c, t))
        else:
            for sid in asks.items:
                s = know.set_index[sid]
                mine = know.my_count[s]
                elsewhere = [c for c in know.set_cards[s] if know.loc[c] != know.me]
                for t in targets:
                    h = deal.pos.get(t)
                    known_here = sum(1 for c in elsewhere if know.loc[c] == t)
                    if known_here:
                        p = 1.0
                    elif h is None or s not in deal.any_p:
                        p = 0.0
                    else:
                        p = deal.any_p[s][h]
                    if all(know.loc[c] == t or deal.index.get(c) is not None for c in elsewhere):
                        p_all = deal.all_p[s][h] if s in deal.all_p and h is not None else float(known_here == len(elsewhere))
                    else:
                        p_all = 0.0
                    gain = known_here
                    for c in elsewhere:
                        i = deal.index.get(c)
                        if i is not None and h is not None:
                            gain += deal.card_p[i][h]
                    score = p + W_ALL * p_all + W_GAIN * gain
                    out.append((score, s, t))
        return out

    def _ask(self, view: PlayerView, deal: Deal) -> Move:
        cands = self._candidates(view, deal)
        best = max(c[0] for c in cands)
        top = [c for c in cands if c[0] >= best - 1e-9]
        _, item, target = self.rng.choice(top)
        return self._make(view, item, target)

    def _make(self, view: PlayerView, item: int, target: int) -> Ask:
        know = self.know
        if know.by_card:
            return Ask(view.seat, know.players[target], card=know.card_ids[item])
        return Ask(view.seat, know.players[target], set=know.set_ids[item])

    # ------------------------------------------------------------------------------------------
    # Literature
    # ------------------------------------------------------------------------------------------
    def _team_move(self, view: PlayerView, deal: Deal) -> Move:
        know = self.know
        team = [know.seat[name] for name in view.teams[view.team]]
        if view.claimable:
            sure = self._sure_claim(view, deal, team)
            if sure is not None:
                return sure
        if view.asks:
            if view.claimable and know.quiet > STALL_ASKS:
                return self._best_guess_claim(view, deal, team)
            return self._ask(view, deal)
        if view.pass_targets:
            return PassTurn(view.seat, self._pass_to(view))
        return self._best_guess_claim(view, deal, team)

    def _holders(self, view: PlayerView, deal: Deal, team: list[int], set_id: str,
                 certain: bool) -> tuple[dict[str, str] | None, float]:
        """Who in the team holds each card of the set: exactly (certain) or the likeliest, with its odds."""
        know = self.know
        out, odds = {}, 1.0
        for c in know.set_cards[know.set_index[set_id]]:
            where = know.loc[c]
            if where >= 0:
                if where not in team:
                    return None, 0.0
                out[know.card_ids[c]] = know.players[where]
                continue
            i = deal.index[c]
            if certain:
                h = deal.must_hold(i)
                if h is None or deal.holders[h] not in team:
                    return None, 0.0
                out[know.card_ids[c]] = know.players[deal.holders[h]]
            else:
                best_h = max((h for h in range(deal.m) if deal.holders[h] in team),
                             key=lambda h: deal.card_p[i][h], default=None)
                if best_h is None:
                    return None, 0.0
                odds *= deal.card_p[i][best_h]
                out[know.card_ids[c]] = know.players[deal.holders[best_h]]
        return out, odds

    def _sure_claim(self, view: PlayerView, deal: Deal, team: list[int]) -> Move | None:
        know = self.know
        team_set = set(team)
        for set_id in view.claimable:
            s = know.set_index[set_id]
            # a quick screen: every card can be with the team at all
            if any(know.loc[c] >= 0 and know.loc[c] not in team_set for c in know.set_cards[s]):
                continue
            if any(deal.index.get(c) is not None and
                   sum(deal.card_p[deal.index[c]][h] for h in range(deal.m) if deal.holders[h] in team_set) < 0.999
                   for c in know.set_cards[s]):
                continue
            holders, _ = self._holders(view, deal, team, set_id, certain=True)
            if holders is not None:
                return claim_of(view, set_id, holders)
        return None

    def _best_guess_claim(self, view: PlayerView, deal: Deal, team: list[int]) -> Move:
        best = None
        for set_id in view.claimable:
            holders, odds = self._holders(view, deal, team, set_id, certain=False)
            if holders is not None and (best is None or odds > best[0]):
                best = (odds, set_id, holders)
        if best is None:
            set_id = view.claimable[0]
            know = self.know
            holders = {cid: view.seat for cid in view.set_cards(set_id)}
            return claim_of(view, set_id, holders)
        return claim_of(view, best[1], best[2])

    def _pass_to(self, view: PlayerView) -> str:
        know = self.know
        mine = view.teams[view.team]
        targets = list(view.pass_targets)
        if targets[0] in mine:  # hand the turn to the teammate with most cards
            return max(targets, key=lambda name: (view.hand_counts[name], self.rng.random()))
        return min(targets, key=lambda name: (view.hand_counts[name], self.rng.random()))
