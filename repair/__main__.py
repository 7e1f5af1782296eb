from repair.cli import main

main(prog_name="repair")
