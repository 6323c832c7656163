"""Serial links to peripherals: card scanners and a table microcontroller."""
