"""Everything that talks to TVM: importers, emitters, runners."""
