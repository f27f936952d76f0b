"""The District Planning Committee: its seats, schedule, input files, count and calendar.
"""
