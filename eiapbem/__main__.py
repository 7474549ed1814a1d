from eiapbem.cli.main import main

main()
