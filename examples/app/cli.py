"""Command-line front end for the inventory service."""

import argparse
import json


def parse_args(argv=None):
    """Parse the command line."""
    parser = argparse.ArgumentParser(description="Inventory CLI")
    parser.add_argument("command", choices=["list", "add", "remove"])
    parser.add_argument("--sku")
    parser.add_argument("--quantity", type=int, default=1)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    print(json.dumps({"command": args.command, "sku": args.sku}))


if __name__ == "__main__":
    main()
