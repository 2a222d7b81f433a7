"""`expert`: exact inference from the record, then the ask with the best expected gain.

Knowledge (knowledge.py) keeps the exact facts; inference.py turns them into the probability that each
opponent holds each card or set, by counting the consistent deals. The choice weighs the chance of a
hit (which keeps the turn) against what the ask gives away.
"""
from __future__ import annotations

from ..moves import Ask, Move, PassTurn
from ..views import PlayerView
from .common import RememberingBot, any_legal, claim_of
from .inference import Deal, Inconsistent

RECALL = 0.9
STALL_ASKS = 60  # Literature: asks without a set going down before claiming on the best odds
W_ALL = 1.0
W_GAIN = 0.02
W_HIT = 1.0
W_LEAK = 0.6
CERTAIN = 10.0
GUESS_ODDS = 0.5  # Literature: no ask can hit; claim if the likeliest attribution is this sure

# A set's missing cards as they may lie: (cards per holder, probability) for each spread.
_Spreads = list[tuple[tuple[int, ...], float]]


class ExpertBot(RememberingBot):
    name = "expert"
    recall = RECALL

    def decide(self, view: PlayerView) -> Move:
        if view.teams:
            return self._team_move(view, self._deal())
        if not view.asks:
            return any_legal(view)
        return self._ask(view, self._deal())

    def _deal(self) -> Deal:
        try:
            return Deal(self.know).solve(self.rng, self._watch())
        except Inconsistent:  # a fact was missed (a bot made mid-game): keep only hands and known cards
            return Deal(self.know, relax=True).solve(self.rng, self._watch())

    def _watch(self) -> set[int]:
        know = self.know
        return {s for s, k in enumerate(know.my_count) if k} if not know.by_card else set()

    # ------------------------------------------------------------------------------------------
    # Asking
    # ------------------------------------------------------------------------------------------
    def _candidates(self, view: PlayerView, deal: Deal) -> list[tuple[float, int, int, float]]:
        """(score, item, target, P(hit)) for every legal ask: item is a set (asking by set) or a card."""
        know = self.know
        asks = view.asks
        assert asks is not None  # called when the seat may ask
        targets = [know.seat[t] for t in asks.targets]
        out = []
        if know.by_card:
            for cid in asks.items:
                c = know.card_index[cid]
                s = know.card_set[c]
                for t in targets:
                    p = self._card_at(deal, c, t)
                    pc = p * self._rest_of_set(deal, s, exclude=c) if p > 0.0 else 0.0
                    score = p + W_ALL * pc - W_LEAK * self._leak_card(s, c, p, pc)
                    if p >= 1.0 - 1e-9:
                        score += CERTAIN  # an ask that cannot miss never gives the turn away
                    out.append((score, c, t, p))
        else:
            for sid in asks.items:
                s = know.set_index[sid]
                firsts = self._completion(deal, s, targets)
                pub = know.public_count(know.me, s)
                mine = know.my_count[s]
                for t in targets:
                    p, gain, pc = firsts[t]
                    leak = (1.0 - pc) * max(0.0, min(mine, max(pub, 1)) + gain - pub)
                    score = W_HIT * p + W_ALL * pc + W_GAIN * gain - W_LEAK * leak
                    if p >= 1.0 - 1e-9:
                        score += CERTAIN  # an ask that cannot miss never gives the turn away
                    out.append((score, s, t, p))
        return out

    # -- probabilities ------------------------------------------------------------------------------
    def _card_at(self, deal: Deal, c: int, t: int) -> float:
        know = self.know
        if know.loc[c] == t:
            return 1.0
        i, h = deal.index.get(c), deal.pos.get(t)
        if i is None or h is None:
            return 0.0
        return deal.card_p[i][h]

    def _rest_of_set(self, deal: Deal, s: int, exclude: int) -> float:
        """Roughly, the chance that the other missing cards of s are within reach: at their likeliest
        opponent (each ask must hit), or, in a team game, already with the team (a claim then wins it)."""
        know = self.know
        team = self._team_seats()
        odds = 1.0
        for c in know.set_cards[s]:
            if c == exclude or know.loc[c] == know.me:
                continue
            if know.loc[c] >= 0:  # known: with the team, or to be had for the asking
                continue
            i = deal.index.get(c)
            if i is None:
                return 0.0
            row = deal.card_p[i]
            if team is None:
                odds *= max((row[h] for h in range(deal.m) if deal.holders[h] < know.n), default=0.0)
            else:
                odds *= sum(row[h] for h in range(deal.m) if deal.holders[h] in team)
        return odds

    def _team_seats(self) -> set[int] | None:
        know = self.know
        if know.team_of is None:
            return None
        return {p for p in range(know.n) if know.team_of[p] == know.team_of[know.me]}

    def _completion(self, deal: Deal, s: int, targets: list[int]) -> dict[int, tuple[float, float, float]]:
        """For each first target t: P(hit), E[cards], and P(collecting the whole set this turn by asking
        for it, t first, then the best order) — from the joint spread of the set's missing cards."""
        m = deal.m
        known = [deal.known_at[h][s] for h in range(m)]
        joint = deal.joint.get(s) or {tuple([0] * m): 1.0}
        dist: dict[tuple[int, ...], float] = {}
        for vec, p in joint.items():
            tot = tuple(v + k for v, k in zip(vec, known))
            dist[tot] = dist.get(tot, 0.0) + p
        askable = [deal.pos[t] for t in targets if t in deal.pos]
        items = list(dist.items())
        out = {}
        for t in targets:
            h = deal.pos.get(t)
            if h is None:
                out[t] = (0.0, 0.0, 0.0)
                continue
            hit = sum(p for tot, p in items if tot[h])
            gain = sum(p * tot[h] for tot, p in items)
            groups: dict[int, _Spreads] = {}
            for tot, p in items:
                if tot[h]:
                    groups.setdefault(tot[h], []).append((tot, p))
            done = sum(_best_sequence(g, frozenset([h]), askable) for g in groups.values())
            out[t] = (hit, gain, done)
        return out

    def _leak_card(self, s: int, c: int, p: float, pc: float) -> float:
        """What asking for card c of s tells the table that it did not know: that we hold the set."""
        know = self.know
        pub = know.public_count(know.me, s)
        return (1.0 - pc) * (float(pub == 0) + p)

    def _ask(self, view: PlayerView, deal: Deal) -> Move:
        return self._pick(view, self._candidates(view, deal))

    def _pick(self, view: PlayerView, cands: list[tuple[float, int, int, float]]) -> Move:
        best = max(c[0] for c in cands)
        top = [c for c in cands if c[0] >= best - 1e-9]
        _, item, target, _ = self.rng.choice(top)
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
        team = [know.seat[name] for name in view.own_team()]
        if view.claimable:
            sure = self._sure_claim(view, deal, team)
            if sure is not None:
                return sure
        if view.asks:
            if view.claimable and know.quiet > STALL_ASKS:
                return self._best_guess_claim(view, deal, team)
            cands = self._candidates(view, deal)
            if view.claimable and max(c[3] for c in cands) <= 0.0:  # no ask can hit
                odds, claim = self._likeliest_claim(view, deal, team)
                if claim is not None and odds >= GUESS_ODDS:
                    return claim
            return self._pick(view, cands)
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

    def _likeliest_claim(self, view: PlayerView, deal: Deal, team: list[int]) -> tuple[float, Move | None]:
        best = None
        for set_id in view.claimable:
            holders, odds = self._holders(view, deal, team, set_id, certain=False)
            if holders is not None and (best is None or odds > best[0]):
                best = (odds, set_id, holders)
        if best is None:
            return 0.0, None
        return best[0], claim_of(view, best[1], best[2])

    def _best_guess_claim(self, view: PlayerView, deal: Deal, team: list[int]) -> Move:
        odds, claim = self._likeliest_claim(view, deal, team)
        if claim is None:  # every claimable set has a card known to be with the other team
            set_id = view.claimable[0]
            return claim_of(view, set_id, {cid: view.seat for cid in view.set_cards(set_id)})
        return claim

    def _pass_to(self, view: PlayerView) -> str:
        mine = view.own_team()
        targets = list(view.pass_targets)
        if targets[0] in mine:  # hand the turn to the teammate with most cards
            return max(targets, key=lambda name: (view.hand_counts[name], self.rng.random()))
        return min(targets, key=lambda name: (view.hand_counts[name], self.rng.random()))


def _best_sequence(items: _Spreads, asked: frozenset[int], askable: list[int]) -> float:
    """Probability mass of collecting every missing card: `items` are (cards per holder, P) alike so far."""
    rest = [(tot, p) for tot, p in items if any(tot[h] for h in range(len(tot)) if h not in asked)]
    done = sum(p for tot, p in items) - sum(p for _, p in rest)
    if not rest:
        return done
    best = 0.0
    for h in askable:
        if h in asked:
            continue
        groups: dict[int, _Spreads] = {}
        for tot, p in rest:
            if tot[h]:
                groups.setdefault(tot[h], []).append((tot, p))
        value = sum(_best_sequence(g, asked | {h}, askable) for g in groups.values())
        best = max(best, value)
    return done + best
