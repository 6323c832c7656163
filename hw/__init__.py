"""Hardware only, knowing no game: buttons, LED strips, colour pipeline, layouts."""
