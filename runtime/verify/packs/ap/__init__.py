"""The ap pack: its predicates are data, in predicates.yaml beside this file (see README.md)."""

from warrant.runtime.verify.packs.base import Pack, pack_file

PACK = Pack.from_file(pack_file(__file__))
