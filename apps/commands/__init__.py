"""One module per `tavola` subcommand group."""
