"""Where phones in the room can reach this computer: its addresses on the local network.

`make run` serves the class on every interface and names the address students open (join links, QR
codes); a table page warns when its link names this computer alone (127.0.0.1, localhost), which no
phone can open.
"""
from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import ifaddr


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses a phone on the same network may reach: no loopback, no link-local
    (169.254.x.x, an address a machine gives itself when no network answered); private ranges first."""
    found: list[ipaddress.IPv4Address] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6: phones on a classroom network all speak IPv4, and a link is easier to type
            address = ipaddress.IPv4Address(ip.ip)
            if address.is_loopback or address.is_link_local or address.is_multicast or address.is_unspecified:
                continue
            if address not in found:
                found.append(address)
    return [str(a) for a in sorted(found, key=lambda a: (not a.is_private, a))]


def only_this_computer(url: str) -> bool:
    """Whether a link names this computer alone, so that no other device can open it."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
